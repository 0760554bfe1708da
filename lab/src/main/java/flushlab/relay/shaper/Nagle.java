package flushlab.relay.shaper;

import io.netty.channel.ChannelOption;
import java.util.List;

/**
 * TCP_NODELAY off on the client-facing socket: the kernel's Nagle algorithm holds a small segment
 * while an earlier one is unacknowledged, which meets the peer's delayed ACK on small writes.
 */
public final class Nagle extends Shaper {

  public static final ShaperType TYPE =
      new ShaperType(
          "nagle",
          false,
          "a proxy that leaves Nagle on (no TCP_NODELAY) on its client sockets, as hyper/axum servers did",
          List.of(),
          "nagle",
          p -> Nagle::new);

  @Override
  protected void onWired() {
    ctx.clientChannel().config().setOption(ChannelOption.TCP_NODELAY, false);
  }
}
