package flushlab.core;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** An address given on the command line as host:port, or a bare port meaning 127.0.0.1. */
public record HostPort(String host, int port) {
  public static HostPort parse(String flag, String text, boolean allowZero) {
    String t = text == null ? "" : text.trim();
    String host = "127.0.0.1";
    String portText = t;
    int colon = t.lastIndexOf(':');
    if (colon >= 0) {
      host = t.substring(0, colon);
      portText = t.substring(colon + 1);
      boolean bracketed = host.startsWith("[") && host.endsWith("]") && host.length() >= 2;
      if (bracketed) host = host.substring(1, host.length() - 1);
      if (bracketed
          ? !host.matches("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.%A-Za-z]*")
          : !host.matches("[A-Za-z0-9._-]*")) {
        throw new IllegalArgumentException(
            flag
                + ": '"
                + text
                + "' is not host:port (a name or an IPv4 address, or an IPv6 address "
                + "in brackets: 127.0.0.1:8090, localhost:8090, [::1]:8090)");
      }
      if (host.isEmpty()) host = "127.0.0.1";
    }
    int port;
    try {
      port = Integer.parseInt(portText);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          flag + ": '" + text + "' is not host:port (e.g. 127.0.0.1:8090)");
    }
    if (port < (allowZero ? 0 : 1) || port > 65535) {
      throw new IllegalArgumentException(
          flag
              + ": port "
              + port
              + " is out of range (allowed: "
              + (allowZero ? 0 : 1)
              + "..65535)");
    }
    return new HostPort(host, port);
  }

  /**
   * True when this address is reachable only from this machine (127.0.0.0/8, ::1, or a name such as
   * localhost that resolves only to those). A name that does not resolve counts as not loopback.
   */
  public boolean isLoopback() {
    try {
      InetAddress[] all = InetAddress.getAllByName(host);
      for (InetAddress a : all) if (!a.isLoopbackAddress()) return false;
      return all.length > 0;
    } catch (UnknownHostException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
