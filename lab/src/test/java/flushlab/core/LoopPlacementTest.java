package flushlab.core;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabFixture;
import flushlab.core.LoopPlacement.Role;
import flushlab.emitter.EmitterOptions;
import flushlab.relay.Relay;
import flushlab.relay.RelayLog;
import flushlab.relay.RelayOptions;
import io.vertx.core.internal.ContextInternal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LoopPlacementTest {
  @Test
  void aRoleKeepsItsLoopUnlessTheOtherRoleWritesThere() {
    List<String> loops = List.of("a", "b", "c");
    Map<String, int[]> counts = new HashMap<>();
    assertThat(LoopPlacement.choose(loops, "a", Role.EMITTER, counts)).isEqualTo("a");
    counts.put("a", new int[] {1, 0}); // the emitter on a
    assertThat(LoopPlacement.choose(loops, "a", Role.RELAY, counts))
        .as("a relay given the emitter's loop moves")
        .isEqualTo("b");
    counts.put("b", new int[] {0, 2});
    assertThat(LoopPlacement.choose(loops, "a", Role.RELAY, counts))
        .as("to the loop with the fewest relays")
        .isEqualTo("c");
    assertThat(LoopPlacement.choose(loops, "b", Role.RELAY, counts))
        .as("relays may share a loop")
        .isEqualTo("b");
    assertThat(LoopPlacement.choose(loops, "b", Role.EMITTER, counts))
        .as("an emitter given a relay's loop moves")
        .isEqualTo("c");
    counts.put("c", new int[] {1, 0});
    assertThat(LoopPlacement.choose(loops, "b", Role.EMITTER, counts))
        .as("to the one with the fewest emitters")
        .isEqualTo("a");
    counts.put("a", new int[] {1, 1});
    counts.put("c", new int[] {0, 1});
    assertThat(LoopPlacement.choose(loops, "b", Role.EMITTER, counts))
        .as("no loop without a relay: it stays")
        .isEqualTo("b");
  }

  /**
   * In a process of three loops, however many contexts were handed out before, an emitter and the
   * relays started after it never write on its loop (Vert.x hands loops out in turn: every third
   * verticle landed on the emitter's).
   */
  @Test
  void relaysStartedInOneProcessNeverWriteOnTheEmittersLoop() throws Exception {
    try (LabFixture lab = new LabFixture(EmitterOptions.loopback(0), 3)) {
      for (int i = 0; i < 6; i++) {
        Relay relay =
            new Relay(RelayOptions.loopback(lab.emitter.port(), List.of("cork")), RelayLog.SILENT);
        lab.vertx.deployVerticle(relay).await(10, TimeUnit.SECONDS);
        assertThat(((ContextInternal) relay.loop()).nettyEventLoop())
            .as("relay %d", i)
            .isNotSameAs(((ContextInternal) lab.emitter.loop()).nettyEventLoop());
      }
    }
  }
}
