package flushlab.scenario;

import flushlab.core.Units;
import flushlab.stream.Endpoint;
import flushlab.stream.Transfer;
import flushlab.stream.XAccelBuffering;

/**
 * The emitter and client settings a cell carries and a sweep may vary: each sets its typed value
 * on a {@link Cell} from the text its {@link Key} checked, and shows it again. The key holds what
 * the reference says of it (range, default, meaning); this holds where its value lives.
 */
public enum Setting {
  ENDPOINT(Keys.ENDPOINT) {
    @Override
    Cell apply(Cell c, String v) {
      return c.withStream(c.stream().withEndpoint(Endpoint.named(v)));
    }

    @Override
    public String text(Cell c) {
      return c.stream().endpoint().settingName();
    }
  },
  FRAMES(Keys.FRAMES) {
    @Override
    Cell apply(Cell c, String v) {
      return c.withStream(c.stream().withFrames(Integer.parseInt(v)));
    }

    @Override
    public String text(Cell c) {
      return Integer.toString(c.stream().frames());
    }
  },
  FRAME_SIZE(Keys.FRAME_SIZE) {
    @Override
    Cell apply(Cell c, String v) {
      return c.withStream(c.stream().withFrameBytes((int) Units.parseBytes(v)));
    }

    @Override
    public String text(Cell c) {
      return c.stream().frameBytes() + "B";
    }
  },
  INTERVAL(Keys.INTERVAL) {
    @Override
    Cell apply(Cell c, String v) {
      return c.withStream(c.stream().withIntervalNanos(Units.parseDurationNanos(v)));
    }

    @Override
    public String text(Cell c) {
      return Units.formatDuration(c.stream().intervalNanos());
    }
  },
  THINK(Keys.THINK) {
    @Override
    Cell apply(Cell c, String v) {
      return c.withStream(c.stream().withThinkNanos(Units.parseDurationNanos(v)));
    }

    @Override
    public String text(Cell c) {
      return Units.formatDuration(c.stream().thinkNanos());
    }
  },
  TRANSFER(Keys.TRANSFER) {
    @Override
    Cell apply(Cell c, String v) {
      return c.withStream(c.stream().withTransfer(Transfer.named(v)));
    }

    @Override
    public String text(Cell c) {
      return c.stream().transfer().settingName();
    }
  },
  TOTAL(Keys.TOTAL) {
    @Override
    Cell apply(Cell c, String v) {
      return c.withStream(c.stream().withTotalBytes(Units.parseBytes(v)));
    }

    @Override
    public String text(Cell c) {
      return c.stream().bulk() ? c.stream().totalBytes() + "B" : null;
    }
  },
  X_ACCEL_BUFFERING(Keys.X_ACCEL_BUFFERING) {
    @Override
    Cell apply(Cell c, String v) {
      return c.withStream(c.stream().withXAccelBuffering(XAccelBuffering.named(v)));
    }

    @Override
    public String text(Cell c) {
      return c.stream().xAccelBuffering().settingName();
    }
  },
  SLOW_READER(Keys.SLOW_READER) {
    @Override
    Cell apply(Cell c, String v) {
      return c.withClient(c.client().withSlowReaderPauseNanos(Units.parseDurationNanos(v)));
    }

    @Override
    public String text(Cell c) {
      return Units.formatDuration(c.client().slowReaderPauseNanos());
    }
  },
  CONCURRENCY(Keys.CONCURRENCY) {
    @Override
    Cell apply(Cell c, String v) {
      return c.withClient(c.client().withRequests(c.client().requests(), Integer.parseInt(v)));
    }

    @Override
    public String text(Cell c) {
      return Integer.toString(c.client().concurrency());
    }
  },
  REQUESTS(Keys.REQUESTS) {
    @Override
    Cell apply(Cell c, String v) {
      return c.withClient(c.client().withRequests(Integer.parseInt(v), c.client().concurrency()));
    }

    @Override
    public String text(Cell c) {
      return Integer.toString(c.client().requests());
    }
  },
  KEEP_ALIVE(Keys.KEEP_ALIVE) {
    @Override
    Cell apply(Cell c, String v) {
      return c.withClient(c.client().withKeepAlive(Boolean.parseBoolean(v)));
    }

    @Override
    public String text(Cell c) {
      return Boolean.toString(c.client().keepAlive());
    }
  },
  TIMEOUT(Keys.TIMEOUT) {
    @Override
    Cell apply(Cell c, String v) {
      return c.withClient(c.client().withTimeoutNanos(Units.parseDurationNanos(v)));
    }

    @Override
    public String text(Cell c) {
      return Units.formatDuration(c.client().timeoutNanos());
    }
  },
  MODEL(Keys.MODEL) {
    @Override
    Cell apply(Cell c, String v) {
      return c.withModel(v);
    }

    @Override
    public String text(Cell c) {
      return c.model();
    }
  };

  private final Key key;

  Setting(Key key) {
    this.key = key;
  }

  public Key key() {
    return key;
  }

  /** The cell with this setting's value set from {@code value}, a text its key has checked. */
  abstract Cell apply(Cell c, String value);

  /** This setting's value in {@code c}, as the results show it; null when it is not set. */
  public abstract String text(Cell c);

  /** The setting a scenario names, or null. */
  public static Setting named(String name) {
    for (Setting s : values()) if (s.key.name().equals(name)) return s;
    return null;
  }
}
