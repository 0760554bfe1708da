package flushlab.relay.shaper;

import java.util.List;

/**
 * The kernel mechanism behind HAProxy's default: TCP_CORK is set on the client-facing socket while
 * a response is unfinished and cleared at its end, so the kernel itself holds partial segments
 * until a full segment is ready or its ~200 ms ceiling passes. Uses the real socket option (epoll),
 * not a timer imitating it. The cork is applied by the client writer at this point of the stream,
 * so shapers after this one cannot make it act early.
 */
public final class Cork extends Shaper {

  public static final ShaperType TYPE =
      new ShaperType(
          "cork",
          false,
          "HAProxy's default without option http-no-delay: TCP_CORK on the client socket while the response is unfinished",
          List.of(),
          "cork",
          p -> Cork::new);

  @Override
  public void accept(Chunk c) {
    switch (c.kind) {
      case RESPONSE_START:
        next.accept(c);
        next.accept(Chunk.cork(true, c.arrivalNanos));
        return;
      case RESPONSE_END:
      case CLOSE:
        next.accept(Chunk.cork(false, c.arrivalNanos));
        next.accept(c);
        return;
      default:
        next.accept(c);
    }
  }
}
