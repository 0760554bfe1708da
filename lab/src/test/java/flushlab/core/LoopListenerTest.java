package flushlab.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flushlab.emitter.Emitter;
import flushlab.emitter.EmitterOptions;
import io.netty.channel.Channel;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServerOptions;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A {@link LoopListener} accepts on the loop that serves: a connection's channel is registered on
 * the very event loop its listening socket lives on (Vert.x's NetServer accepts on a separate
 * acceptor thread, so there the two differ), and several listeners share a port without letting
 * another process share it too.
 */
class LoopListenerTest {
  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = LabVertx.create(2);
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  /**
   * Each listener records, per connection, whether it was served where it was accepted, and on
   * which loop.
   */
  private static final class Recording extends VerticleBase {
    final int port;
    final boolean share;
    final List<Boolean> servedWhereAccepted;
    final Set<Thread> servingThreads;
    LoopListener listener;

    Recording(
        int port, boolean share, List<Boolean> servedWhereAccepted, Set<Thread> servingThreads) {
      this.port = port;
      this.share = share;
      this.servedWhereAccepted = servedWhereAccepted;
      this.servingThreads = servingThreads;
    }

    @Override
    public Future<?> start() {
      NetServerOptions options =
          new NetServerOptions().setHost("127.0.0.1").setPort(port).setTcpNoDelay(true);
      return LoopListener.bind(
              context,
              options,
              share,
              socket -> {
                Channel ch = LabVertx.channel(socket);
                servedWhereAccepted.add(
                    ch.parent().eventLoop() == ch.eventLoop() && ch.eventLoop().inEventLoop());
                servingThreads.add(Thread.currentThread());
                socket.close();
              })
          .onSuccess(l -> listener = l);
    }
  }

  @Test
  void aConnectionIsServedOnTheLoopThatAcceptedIt() throws Exception {
    List<Boolean> served = new CopyOnWriteArrayList<>();
    Set<Thread> threads = ConcurrentHashMap.newKeySet();
    Recording one = new Recording(0, false, served, threads);
    vertx.deployVerticle(one).await(10, TimeUnit.SECONDS);
    for (int i = 0; i < 5; i++) connectAndWaitForClose(one.listener.port());
    assertThat(served).hasSize(5).containsOnly(true);
  }

  @Test
  void listenersOnTwoLoopsShareAPortAndEachServesWhatItAccepts() throws Exception {
    List<Boolean> served = new CopyOnWriteArrayList<>();
    Set<Thread> threads = ConcurrentHashMap.newKeySet();
    Recording first = new Recording(0, true, served, threads);
    vertx.deployVerticle(first).await(10, TimeUnit.SECONDS);
    int port = first.listener.port();
    vertx
        .deployVerticle(
            () -> new Recording(port, true, served, threads),
            new DeploymentOptions().setInstances(1))
        .await(10, TimeUnit.SECONDS);
    // The kernel spreads connections over the two sockets by a hash of their addresses: 32
    // connections all landing on one of two is a 1-in-2^31 event.
    for (int i = 0; i < 32; i++) connectAndWaitForClose(port);
    assertThat(served).hasSize(32).containsOnly(true);
    assertThat(threads).as("connections were served on both loops").hasSize(2);
  }

  /**
   * SO_REUSEPORT lets a second socket of the same user bind a port the first holds with it, and the
   * two would split the connections without a word; an emitter with listeners on several loops must
   * still say the port is in use.
   */
  @Test
  void aPortThatAnotherSocketHoldsWithReusePortIsStillInUse() throws Exception {
    try (ServerSocket other = new ServerSocket()) {
      other.setOption(StandardSocketOptions.SO_REUSEPORT, true);
      other.bind(new InetSocketAddress("127.0.0.1", 0));
      Emitter emitter = new Emitter(EmitterOptions.loopback(other.getLocalPort()).withListeners(2));
      assertThatThrownBy(() -> vertx.deployVerticle(emitter).await(10, TimeUnit.SECONDS))
          .hasMessageContaining("Address already in use");
    }
  }

  private static void connectAndWaitForClose(int port) throws Exception {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      s.setSoTimeout(10_000);
      assertThat(s.getInputStream().read()).as("the listener closes the connection").isEqualTo(-1);
    }
  }
}
