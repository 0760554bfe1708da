package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.core.LabVertx;
import flushlab.relay.ConnectionContext;
import flushlab.relay.FlowControl;
import flushlab.relay.RelayLog;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class NagleTest extends ShaperTestBase {
  @Test
  void turnsTcpNoDelayOffOnTheClientSocketItself() throws Exception {
    CompletableFuture<Boolean[]> seen = new CompletableFuture<>();
    var server =
        lab.vertx.createNetServer(
            new NetServerOptions().setHost("127.0.0.1").setPort(0).setTcpNoDelay(true));
    server.connectHandler(
        (NetSocket so) -> {
          Channel ch = LabVertx.channel(so);
          boolean before = ch.config().getOption(ChannelOption.TCP_NODELAY);
          Shaper nagle = ShaperRegistry.parse("nagle").create();
          nagle.wire(
              c -> {}, new ConnectionContext(ch, new FlowControl(), RelayLog.SILENT, "test"));
          seen.complete(new Boolean[] {before, ch.config().getOption(ChannelOption.TCP_NODELAY)});
          so.close();
        });
    server.listen().await(5, TimeUnit.SECONDS);
    lab.vertx
        .createNetClient()
        .connect(server.actualPort(), "127.0.0.1")
        .await(5, TimeUnit.SECONDS);
    Boolean[] nodelay = seen.get(10, TimeUnit.SECONDS);
    assertThat(nodelay[0]).as("before the shaper").isTrue();
    assertThat(nodelay[1]).as("after the shaper").isFalse();
    server.close();
  }

  @Test
  void theStreamStillArrivesWhole() throws Exception {
    var r = through("frames=100&size=60&interval=1ms", "nagle");
    assertThat(r.frames()).isEqualTo(100);
    assertThat(r.lostFrames()).isZero();
  }
}
