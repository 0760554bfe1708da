package flushlab.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flushlab.coding.ContentCoding;
import flushlab.coding.FlushPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The typed stream model: what a scenario or flag builds is what the emitter reads back. */
class StreamSpecTest {

  @Test
  void aSpecReadsBackFromItsOwnQueryExactly() {
    StreamSpec s =
        StreamSpec.DEFAULT
            .withFrames(7)
            .withFrameBytes(1100)
            .withIntervalNanos(1_500_000)
            .withThinkNanos(250_000_000)
            .withTransfer(Transfer.CHUNKED_ALWAYS)
            .withXAccelBuffering(XAccelBuffering.NO)
            .withHeaders(List.of(new ResponseHeader("X-Test", "a b:c")));
    assertThat(StreamSpec.fromQuery(s.toQuery())).isEqualTo(s);
    StreamSpec bulk = StreamSpec.DEFAULT.withFrameBytes(4096).withTotalBytes(1 << 20);
    StreamSpec back = StreamSpec.fromQuery(bulk.toQuery());
    assertThat(back.frameCount()).isEqualTo(256).isEqualTo(bulk.frameCount());
    assertThat(back.totalBytes()).isEqualTo(1 << 20);
  }

  @Test
  void compressionReadsBackFromItsOwnQuery() {
    StreamSpec s =
        StreamSpec.DEFAULT.withCompression(
            new Compression(
                ContentCoding.ZSTD, FlushPolicy.bytes(4096), CacheControl.NO_TRANSFORM));
    assertThat(s.toQuery())
        .contains("encoding=zstd")
        .contains("flush=bytes:4096")
        .contains("cache_control=no-transform");
    assertThat(StreamSpec.fromQuery(s.toQuery())).isEqualTo(s);
    StreamSpec timed =
        StreamSpec.DEFAULT.withCompression(
            Compression.NONE.withCoding(ContentCoding.BR).withFlush(FlushPolicy.millis(200)));
    assertThat(StreamSpec.fromQuery(timed.toQuery())).isEqualTo(timed);
    assertThat(StreamSpec.fromQuery("encoding=identity").compression()).isEqualTo(Compression.NONE);
    assertThatThrownBy(() -> StreamSpec.fromQuery("encoding=lz4"))
        .hasMessageContaining("'encoding'")
        .hasMessageContaining("identity, gzip, deflate, br, zstd");
    assertThatThrownBy(() -> StreamSpec.fromQuery("cache_control=private"))
        .hasMessageContaining("no-cache, no-transform");
  }

  @Test
  void anEmptyQueryIsTheDefaultStream() {
    assertThat(StreamSpec.fromQuery("")).isEqualTo(StreamSpec.DEFAULT);
    assertThat(StreamSpec.fromQuery(null).frameCount()).isEqualTo(StreamSpec.DEFAULT_FRAMES);
  }

  @Test
  void xAccelBufferingIsSentAsAHeaderFirst() {
    StreamSpec s =
        StreamSpec.DEFAULT
            .withXAccelBuffering(XAccelBuffering.YES)
            .withHeaders(List.of(new ResponseHeader("A", "1")));
    assertThat(s.responseHeaders())
        .extracting(ResponseHeader::toString)
        .containsExactly("X-Accel-Buffering: yes", "A: 1");
  }

  @Test
  void badValuesAreRefusedByParameter() {
    assertThatThrownBy(() -> StreamSpec.fromQuery("transfer=gzip"))
        .hasMessageContaining("'transfer'")
        .hasMessageContaining("chunked, close, chunked-always");
    assertThatThrownBy(() -> StreamSpec.fromQuery("frames=2&total=1KiB"))
        .hasMessageContaining("not both");
    assertThatThrownBy(() -> StreamSpec.fromQuery("x_accel_buffering=maybe"))
        .hasMessageContaining("absent, no, yes");
    assertThatThrownBy(() -> StreamSpec.fromQuery("header=Bad Name:x"))
        .hasMessageContaining("'header'");
  }

  @Test
  void endpointsAreNamedAsScenariosNameThem() {
    assertThat(Endpoint.named("chat")).isEqualTo(Endpoint.CHAT);
    assertThat(Endpoint.RESPONSES.isOpenAi()).isTrue();
    assertThat(Endpoint.SSE.isOpenAi()).isFalse();
    assertThatThrownBy(() -> Endpoint.named("ws")).hasMessageContaining("sse, chat, responses");
  }
}
