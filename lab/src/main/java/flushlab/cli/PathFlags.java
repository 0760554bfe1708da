package flushlab.cli;

import com.beust.jcommander.Parameter;
import flushlab.netpath.NetworkPath;

/**
 * {@code --path} and {@code --mtu}: the network between the client and what the lab starts, as the
 * scenario keys.
 */
final class PathFlags {
  @Parameter(
      names = "--path",
      description =
          "loopback, or veth: the servers the lab starts run in a network namespace "
              + "of its own, across a veth link of --mtu (needs Linux, root and iproute2)")
  String path = "loopback";

  @Parameter(
      names = "--mtu",
      description = "The veth link's MTU (576..65535; default 1500, an Ethernet path)")
  Integer mtu;

  /** The path the flags name; a bad value is refused with what is valid. */
  NetworkPath path() {
    try {
      return NetworkPath.of("--path", path, mtu);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          e.getMessage()
              .replace("--path: MTU", "--mtu: MTU")
              .replace("--path: the loopback", "--mtu: the loopback"));
    }
  }
}
