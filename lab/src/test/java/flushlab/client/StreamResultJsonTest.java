package flushlab.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import flushlab.LabFixture;
import flushlab.core.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A stream's results survive JSON (how an agent sends a map's cell to its coordinator): the batch
 * made of them reads the same.
 */
class StreamResultJsonTest {
  @Test
  void aBatchRebuiltFromItsStreamsJsonReadsTheSame() throws Exception {
    try (LabFixture lab = new LabFixture()) {
      BatchResult r =
          lab.measure(
              RequestPlan.get(lab.sseUrl("frames=30&size=200&interval=2ms")),
              ClientOptions.single().withRequests(3, 3));
      assertThat(r.streamsOk()).isEqualTo(3);
      String json = Json.write(r.streamResults());
      List<StreamResult> back =
          Json.MAPPER.readValue(json, new TypeReference<List<StreamResult>>() {});
      assertThat(Json.write(back)).isEqualTo(json);
      assertThat(Json.write(new BatchResult(back))).isEqualTo(Json.write(r));
    }
  }
}
