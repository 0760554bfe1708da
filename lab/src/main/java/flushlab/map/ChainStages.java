package flushlab.map;

import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import flushlab.relay.shaper.ByteThreshold;
import flushlab.relay.shaper.Compress;
import flushlab.relay.shaper.Cork;
import flushlab.relay.shaper.OneLate;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.relay.shaper.TimerFlush;
import java.util.List;
import java.util.Map;

/**
 * The simulated stages of a two-stage chain and the chain of two stages: a chain as `--shape` takes
 * it read into the stages {@link PairSimulation} runs, and a stage written as `--shape` takes it.
 */
final class ChainStages {
  private ChainStages() {}

  /**
   * The stages of a chain this fit gives ("timer=99.9ms -> byte-threshold=3643B"), or of a
   * compressor's flush beside a hold or a clock ({@link PairSimulation#compressorFlush}), or null
   * for any other chain (one the registry refuses included).
   */
  static Stage[] of(String chain) {
    return of(chain, false);
  }

  /**
   * As {@link #of(String)}, and a compressor that flushes each write when the next comes as the
   * one-late stage it is to the frames' times: for the waits a model's clock gives a cell over its
   * phases ({@link ClockPhases}), which the fits' own simulations do not ask of it.
   */
  static Stage[] forPhases(String chain) {
    return of(chain, true);
  }

  /**
   * {@code chain}'s stages as the registry reads them, or null for a chain it refuses (or none):
   * the map's readers of a model's chain ask it for what they need and answer for no chain
   * themselves.
   */
  static List<ShaperRegistry.Spec> specs(String chain) {
    if (chain == null) return null;
    try {
      return ShaperRegistry.parseChain(chain);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Whether {@code chain} is two stages the simulation runs, of {@code first} then {@code second}.
   */
  static boolean isPair(String chain, Kind first, Kind second) {
    Stage[] p = of(chain);
    return p != null && p[0].kind() == first && p[1].kind() == second;
  }

  private static Stage[] of(String chain, boolean nextAsOneLate) {
    List<ShaperRegistry.Spec> specs = specs(chain);
    if (specs == null || specs.size() != 2) return null;
    Stage[] out = new Stage[2];
    for (int i = 0; i < 2; i++) {
      out[i] = stageOf(specs.get(i), i == 1, nextAsOneLate);
      if (out[i] == null) return null;
    }
    return out;
  }

  /** One spec as this fit simulates it; the cork only second. */
  private static Stage stageOf(ShaperRegistry.Spec spec, boolean second, boolean nextAsOneLate) {
    Map<String, Long> v = spec.values();
    if (spec.type() == ByteThreshold.TYPE)
      return v.get(ByteThreshold.SPLIT.key()) == 0
          ? new Stage(Kind.THRESHOLD, v.get(ByteThreshold.BYTES.key()))
          : null;
    if (spec.type() == TimerFlush.TYPE) {
      double ms = v.get(TimerFlush.AFTER.key()) / 1e6;
      return new Stage(v.get(TimerFlush.PERIODIC.key()) == 1 ? Kind.PERIODIC : Kind.HOLD, ms);
    }
    if (spec.type() == Compress.TYPE) {
      Compress.Flush flush = spec.choice(Compress.FLUSH, Compress.Flush.class);
      return switch (flush) {
        case TIMER -> new Stage(Kind.FLUSH_TIMER, v.get(Compress.AFTER.key()) / 1e6);
        case INPUT -> new Stage(Kind.FLUSH_INPUT, v.get(Compress.BYTES.key()));
        case BYTES -> new Stage(Kind.FLUSH_OUTPUT, v.get(Compress.BYTES.key()));
        case NEXT -> nextAsOneLate ? new Stage(Kind.ONE_LATE, 0) : null;
        default -> null;
      };
    }
    if (second && spec.type() == Cork.TYPE) return new Stage(Kind.CORK, CorkAfterFit.CEILING_MS);
    if (spec.type() == OneLate.TYPE) return new Stage(Kind.ONE_LATE, 0);
    return null;
  }

  /** The stage as `--shape` takes it, its value rounded as an answer gives it. */
  static String text(Stage s) {
    String t = ShaperModel.ms(s.value());
    return switch (s.kind()) {
      case THRESHOLD, INPUT_THRESHOLD -> "byte-threshold=" + Math.round(s.value()) + "B";
      case HOLD -> "timer=" + t;
      case PERIODIC -> "timer=" + t + ",periodic=true";
      case CORK -> "cork";
      case ONE_LATE -> "one-late";
      case FLUSH_TIMER -> "compress=gzip,flush=timer,after=" + t;
      case FLUSH_INPUT -> "compress=gzip,flush=input,bytes=" + Math.round(s.value()) + "B";
      case FLUSH_OUTPUT -> "compress=gzip,flush=bytes,bytes=" + Math.round(s.value()) + "B";
    };
  }
}
