package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/**
 * A port that accepts is the proxy's only when the proxy's own process tree holds the listening
 * socket: another process that took the port first is told apart, so the lab never measures it as
 * the proxy.
 */
class ProxyPortTest {
  @Test
  void theListenerIsOwnedByTheProcessThatHoldsItAndNoOther() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = s.getLocalPort();
      assertThat(ProxyPort.accepts("127.0.0.1", port)).isTrue();
      Boolean mine = ProxyPort.ownedBy(ProcessHandle.current(), port);
      Process other = new ProcessBuilder("sleep", "30").start();
      try {
        Boolean theirs = ProxyPort.ownedBy(other.toHandle(), port);
        if (mine == null) {
          System.out.println("SKIPPED (ProxyPortTest): this host's /proc cannot tell owners");
          assertThat(theirs).isNull();
          return;
        }
        assertThat(mine).as("this JVM holds the listener").isTrue();
        assertThat(theirs).as("a process that holds no socket on the port").isFalse();
      } finally {
        other.destroyForcibly().waitFor();
      }
    }
  }

  @Test
  void aStartThatFailedOnATakenPortIsToldByWhatEveryProxySays() {
    assertThat(
            ProxyPort.taken(
                "nginx: [emerg] bind() to 127.0.0.1:4000 failed (98: Address already in use)"))
        .isTrue();
    assertThat(ProxyPort.taken("caddy: listen tcp 127.0.0.1:4000: bind: address already in use"))
        .isTrue();
    assertThat(
            ProxyPort.taken(
                "haproxy: cannot bind socket (Address already in use) [127.0.0.1:4000]"))
        .isTrue();
    assertThat(ProxyPort.taken("caddy exited with status 1: unknown directive")).isFalse();
    assertThat(ProxyPort.taken(null)).isFalse();
  }
}
