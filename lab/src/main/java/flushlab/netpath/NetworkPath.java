package flushlab.netpath;

/**
 * The network between the lab's client and the servers it starts. {@code loopback}: everything on
 * this host's loopback interface (MTU 65536, so a TCP segment can carry ~64 KiB). {@code veth}: the
 * servers run in a network namespace of their own, joined to the lab's by a veth link of a settable
 * MTU (default 1500, an Ethernet path: 1448 bytes per segment with timestamps), which changes what
 * a kernel cork or Nagle does with small writes. Every result names its path.
 */
public record NetworkPath(Kind kind, int mtu) {
  public enum Kind {
    LOOPBACK("loopback"),
    VETH("veth"),
    /** A server the lab did not start: whatever route this host has to it. */
    HOST_ROUTE("host-route");

    public final String text;

    Kind(String text) {
      this.text = text;
    }

    /** The path a scenario or flag names (loopback or veth), or null. */
    public static Kind named(String text) {
      for (Kind k : values()) if (k != HOST_ROUTE && k.text.equals(text)) return k;
      return null;
    }
  }

  public static final int LOOPBACK_MTU = 65536;
  public static final int DEFAULT_VETH_MTU = 1500;

  /** IPv4's minimum MTU and the largest a veth link takes. */
  public static final int MIN_MTU = 576;

  public static final int MAX_MTU = 65535;

  public static final NetworkPath LOOPBACK = new NetworkPath(Kind.LOOPBACK, LOOPBACK_MTU);
  public static final NetworkPath HOST_ROUTE = new NetworkPath(Kind.HOST_ROUTE, 0);

  public static NetworkPath veth(int mtu) {
    return new NetworkPath(Kind.VETH, mtu);
  }

  /**
   * The path a flag or key names: {@code loopback} or {@code veth}, with {@code mtu} (null for the
   * default) applying to veth only. Throws with what is valid.
   */
  public static NetworkPath of(String where, String path, Integer mtu) {
    Kind kind = Kind.named(path);
    if (kind == null)
      throw new IllegalArgumentException(
          where + ": '" + path + "' is not a network path (allowed: loopback, veth)");
    return of(where, kind, mtu);
  }

  /**
   * A path of a kind the lab makes (loopback or veth), with an MTU it can take (null: the kind's
   * own).
   */
  public static NetworkPath of(String where, Kind kind, Integer mtu) {
    if (kind == Kind.LOOPBACK) {
      if (mtu != null && mtu != LOOPBACK_MTU) {
        throw new IllegalArgumentException(
            where
                + ": the loopback path's MTU is fixed at "
                + LOOPBACK_MTU
                + "; an MTU of "
                + mtu
                + " needs path veth");
      }
      return LOOPBACK;
    }
    if (kind == Kind.VETH) {
      int m = mtu == null ? DEFAULT_VETH_MTU : mtu;
      if (m < MIN_MTU || m > MAX_MTU) {
        throw new IllegalArgumentException(
            where + ": MTU " + m + " is out of range (allowed: " + MIN_MTU + ".." + MAX_MTU + ")");
      }
      return veth(m);
    }
    throw new IllegalArgumentException(
        where
            + ": "
            + (kind == null ? "no" : "'" + kind.text + "' is not a")
            + " network path the lab "
            + "makes (allowed: loopback, veth)");
  }

  public boolean isVeth() {
    return kind == Kind.VETH;
  }

  /**
   * The most payload one TCP segment carries on this path (IPv4, with the timestamp option Linux
   * uses).
   */
  public int mss() {
    return mtu - 20 - 20 - 12;
  }

  /** One phrase for tables and results: "loopback (MTU 65536)", "veth, MTU 1500". */
  public String describe() {
    switch (kind) {
      case LOOPBACK:
        return "loopback (MTU " + LOOPBACK_MTU + ")";
      case VETH:
        return "veth, MTU " + mtu;
      default:
        return "this host's route to it";
    }
  }

  /** The short form used in target names and file names: loopback, veth1500. */
  public String tag() {
    return kind == Kind.VETH ? "veth" + mtu : kind.text;
  }
}
