package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.FreePort;
import flushlab.HostStalls;
import flushlab.cli.Main;
import flushlab.cluster.Agent;
import flushlab.cluster.ClusterSpec;
import flushlab.core.Build;
import flushlab.core.HostPort;
import flushlab.core.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `flushlab map --cluster` on two agents of this JVM (the emitter on a, the relay and the client on
 * b): the answer's model runs as a relay on the agent that runs the target, every cell is replayed
 * on it by the client agent, and the answer is given only once its replay reproduced the target
 * (before, a map on agents gave its answer unreplayed). Among the map's classes, not the cluster's,
 * which end the suite.
 */
class MapOnAgentsTest {
  private static final byte[] SECRET =
      "correct horse battery staple".getBytes(StandardCharsets.UTF_8);

  /**
   * A hold of 200 ms (a user's blind map on agents once answered a hold of 307 ms inconclusive, two
   * releases a stream; that one now answers too, docs/CLUSTER.md, but measures a longer think).
   */
  @Test
  void theModelIsReplayedOnTheTargetsAgent(@TempDir Path dir) throws Exception {
    int pa = FreePort.forALaterServer(3);
    List<HostPort> join = List.of(new HostPort("127.0.0.1", pa));
    long t0 = System.nanoTime();
    try (Agent a =
            Agent.start(
                new ClusterSpec("lab-map", SECRET, Build.version(), "a", join.get(0), List.of()),
                line -> {});
        Agent b =
            Agent.start(
                new ClusterSpec(
                    "lab-map",
                    SECRET,
                    Build.version(),
                    "b",
                    new HostPort("127.0.0.1", FreePort.forALaterServer(3)),
                    join),
                line -> {})) {
      System.out.printf(
          "MapOnAgentsTest: two agents up in %.1f s%n", (System.nanoTime() - t0) / 1e9);
      Path secret = dir.resolve("lab.secret");
      Files.write(secret, SECRET);
      Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code =
          Main.run(
              new String[] {
                "map",
                "--shape",
                "timer=200ms",
                "--cluster",
                "lab-map",
                "--join",
                "127.0.0.1:" + pa,
                "--cluster-host",
                "127.0.0.1:" + FreePort.forALaterServer(3),
                "--emitter-on",
                "a",
                "--client-on",
                "b",
                "--target-on",
                "b",
                "--secret-file",
                secret.toString(),
                "--results",
                dir.resolve("results").toString(),
                "--json",
                dir.resolve("map.json").toString()
              },
              new PrintStream(out),
              new PrintStream(err));
      System.out.println(
          "MapOnAgentsTest: "
              + out.toString()
                  .lines()
                  .filter(
                      l ->
                          l.startsWith("replay")
                              || l.startsWith("model")
                              || l.startsWith("answered")
                              // each cell's line on the target, to tell a stall from the target
                              // when the answer differs (s237: a first frame 54 ms late)
                              || l.startsWith("frame_size")
                              || l.startsWith("certification"))
                  .toList());
      if (code != 0) HostStalls.skipIfSaidIn(err.toString());
      assertThat(code).as(out + "\n" + err).isZero();
      JsonNode answer = Json.MAPPER.readTree(dir.resolve("map.json").toFile());
      HostStalls.skipIfSaidIn(answer.get("verdict").asText());
      assertThat(answer.get("kind").asText()).as(answer.get("verdict").asText()).isEqualTo("timer");
      assertThat(answer.get("timer_ms").asDouble()).isBetween(0.95 * 200, 1.05 * 200);
      assertThat(answer.get("replay").asText()).startsWith("verified: the model timer=");
      assertThat(out.toString())
          .contains("cluster: target relay (relay timer=200ms) runs on agent b");
    }
  }
}
