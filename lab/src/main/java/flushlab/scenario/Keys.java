package flushlab.scenario;

import static flushlab.scenario.Key.Section.CLUSTER;
import static flushlab.scenario.Key.Section.TARGET;
import static flushlab.scenario.Key.Section.TOP;

import flushlab.scenario.Key.Section;
import flushlab.scenario.Key.Type;
import flushlab.targets.TargetKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Every key a scenario may write, once: its section, type, range, default and meaning. The top
 * level's and the cluster's are here; a cell's settings are {@link SettingKeys}', a target's {@link
 * TargetKeys}', the guards' {@link GuardKeys}' and bisection's and probes' {@link ProbeKeys}', and
 * {@link #ALL} lists them all in the reference's order. The loader takes the keys allowed in each
 * place, their checks and their defaults from here; the reference tables in scenarios/README.md are
 * generated from here (and a test checks they are current); the CLI flags that mirror settings take
 * their ranges and descriptions from here. Ranges that are the emitter's or the client's own limits
 * are those limits, not copies.
 */
public final class Keys {
  private Keys() {}

  // ---- top level
  public static final Key NAME =
      Key.of("name", TOP, Type.NAME, null, "names the results folder `results/<timestamp>-<name>/`")
          .range(1, 64)
          .shownDefault("required");
  public static final Key DESCRIPTION =
      Key.of("description", TOP, Type.TEXT, "", "printed at the top of `summary.md`")
          .shownDefault("empty");
  public static final Key EMITTER_SECTION =
      Key.of("emitter", TOP, Type.STRUCTURED, null, "the stream the emitter sends")
          .shape("map of emitter settings (below)")
          .shownDefault("all defaults");
  public static final Key CLIENT_SECTION =
      Key.of("client", TOP, Type.STRUCTURED, null, "how the metered client reads it")
          .shape("map of client settings (below)")
          .shownDefault("all defaults");
  public static final Key TARGETS =
      Key.of("targets", TOP, Type.STRUCTURED, null, "what is measured, in this order in every cell")
          .shape("non-empty list of targets (below)")
          .shownDefault("required");
  public static final Key SWEEP =
      Key.of(
              "sweep",
              TOP,
              Type.STRUCTURED,
              null,
              "the cells are the cross product of these lists (at most "
                  + ScenarioLoader.MAX_CELLS
                  + " cells, counted before any is built)")
          .shape("map of setting -> list of values")
          .shownDefault("none");
  public static final Key RUNS =
      Key.of(
              "runs",
              TOP,
              Type.INT,
              "3",
              "runs per cell and target; one attempt each, never retried")
          .range(1, 1000);
  public static final Key GUARDS_SECTION =
      Key.of("guards", TOP, Type.STRUCTURED, null, "the honesty guards, declared before the run")
          .shape("map (below)")
          .shownDefault("defaults below");
  public static final Key FLUSH_TRIGGER_MAP =
      Key.of(
              "flush_trigger_map",
              TOP,
              Type.BOOL,
              null,
              "infer each target's flush trigger from the sweep")
          .shownDefault("true when there is more than one cell");
  public static final Key EXPECT =
      Key.of(
              "expect",
              TOP,
              Type.STRUCTURED,
              null,
              "what `flushlab run` requires a target's flush-trigger answer to be: a kind (`none`, `byte-threshold`, ...) or a model as "
                  + "`map --shape` takes it (`byte-threshold=4KiB`, its numbers within `expect_tolerance`); an answer that differs makes the "
                  + "run exit 1 and prints the difference; needs the flush-trigger map")
          .shape("map of target name -> kind or model")
          .shownDefault("none");
  public static final Key EXPECT_TOLERANCE =
      Key.of(
              "expect_tolerance",
              TOP,
              Type.FRACTION,
              "0.1",
              "how far a number of an answer's model may be from the one `expect` gives")
          .range(0, 1)
          .shownDefault("`10%`");
  public static final Key PATH =
      Key.of(
              "path",
              TOP,
              Type.CHOICE,
              "loopback",
              "the network between the client and the servers the lab starts: `loopback` (this host's, MTU 65536), or `veth` (the "
                  + "servers in a network namespace of the lab's own, across a veth link of `mtu`; needs Linux, root and iproute2); "
                  + "the direct path, certification and every target without its own `path` use it")
          .choices("loopback", "veth");
  public static final Key MTU =
      Key.of(
              "mtu",
              TOP,
              Type.INT,
              "1500",
              "the veth link's MTU (1500: Ethernet, 1448 bytes per TCP "
                  + "segment); loopback's is fixed at 65536")
          .range(576, 65535);
  public static final Key PROBE =
      Key.of(
              "probe",
              TOP,
              Type.CHOICE,
              null,
              "makes this a TCP-layer probe scenario instead of a stream one: `upload` (a request burst timed to the response head, "
                  + "over a sweep of body sizes, bisecting where the time jumps) or `keepalive` (small requests on one keep-alive "
                  + "connection, TCP_NODELAY on and off); it takes `servers` and the section of its name, not `targets`")
          .shownDefault("(none: a stream scenario)")
          .choices("upload", "keepalive");
  public static final Key UPLOAD_SECTION =
      Key.of("upload", TOP, Type.STRUCTURED, null, "the upload probe's settings (below)")
          .shape("map (below)")
          .shownDefault("below");
  public static final Key KEEPALIVE_SECTION =
      Key.of("keepalive", TOP, Type.STRUCTURED, null, "the keep-alive probe's settings (below)")
          .shape("map (below)")
          .shownDefault("below");
  public static final Key SERVERS =
      Key.of(
              "servers",
              TOP,
              Type.STRUCTURED,
              null,
              "the lab's own upload servers a probe scenario measures, in order, each with its own settings (below)")
          .shape("non-empty list of servers");
  public static final Key ADAPTIVE_SECTION =
      Key.of(
              "adaptive",
              TOP,
              Type.STRUCTURED,
              null,
              "bisect one setting of one target to locate a threshold")
          .shape("map (below)")
          .shownDefault("none");

  // ---- cluster (a scenario that spans a lab's agents; docs/CLUSTER.md)
  public static final Key CLUSTER_SECTION =
      Key.of(
              "cluster",
              TOP,
              Type.STRUCTURED,
              null,
              "run the scenario on a lab's agents on several hosts: this process coordinates (see docs/CLUSTER.md)")
          .shape("map of cluster keys (below)")
          .shownDefault("none: one host");
  public static final Key CLUSTER_NAME =
      Key.of(
              "name",
              CLUSTER,
              Type.TEXT,
              null,
              "the lab's cluster name, as its agents were started with (`--cluster-name`)")
          .shownDefault("required");
  public static final Key CLUSTER_AT =
      Key.of(
              "at",
              CLUSTER,
              Type.HOST_PORT,
              "127.0.0.1:5900",
              "the coordinator's own cluster address (its handshake port; Hazelcast and the event bus take the next two)")
          .range(1, 65533);
  public static final Key CLUSTER_JOIN =
      Key.of(
              "join",
              CLUSTER,
              Type.STRUCTURED,
              null,
              "agents to join, their `--cluster-host` addresses, e.g. `[10.0.0.1:5800]`")
          .shape("non-empty list of host:port")
          .shownDefault("required");
  public static final Key CLUSTER_SECRET_FILE =
      Key.of(
              "secret_file",
              CLUSTER,
              Type.TEXT,
              null,
              "a file holding the lab's shared secret (at most 4 KiB), relative to the scenario; else the environment variable "
                  + "FLUSHLAB_CLUSTER_SECRET")
          .shownDefault("FLUSHLAB_CLUSTER_SECRET");
  public static final Key CLUSTER_LEASE =
      Key.of(
              "lease",
              CLUSTER,
              Type.DURATION,
              "10s",
              "how long an agent keeps serving the run's emitter and relays without hearing from this coordinator (renewed every "
                  + "third of it): a coordinator killed mid-run leaves no agent serving its run for longer")
          .range(1e9, 60e9);

  /** The top-level keys only a stream scenario takes, and those only a probe scenario takes. */
  public static final List<String> STREAM_ONLY =
      List.of(
          "emitter",
          "client",
          "targets",
          "sweep",
          "runs",
          "guards",
          "flush_trigger_map",
          "expect",
          "expect_tolerance",
          "adaptive",
          "cluster");

  public static final List<String> PROBE_ONLY = List.of("upload", "keepalive", "servers");

  public static final List<Key> ALL =
      List.of(
          NAME,
          DESCRIPTION,
          EMITTER_SECTION,
          CLIENT_SECTION,
          TARGETS,
          SWEEP,
          RUNS,
          GUARDS_SECTION,
          FLUSH_TRIGGER_MAP,
          EXPECT,
          EXPECT_TOLERANCE,
          PATH,
          MTU,
          ADAPTIVE_SECTION,
          PROBE,
          UPLOAD_SECTION,
          KEEPALIVE_SECTION,
          SERVERS,
          CLUSTER_SECTION,
          SettingKeys.ENDPOINT,
          SettingKeys.FRAMES,
          SettingKeys.FRAME_SIZE,
          SettingKeys.INTERVAL,
          SettingKeys.THINK,
          SettingKeys.TRANSFER,
          SettingKeys.CONTENT_TYPE,
          SettingKeys.SSE_KEEPALIVE,
          SettingKeys.METHOD,
          SettingKeys.TOTAL,
          SettingKeys.X_ACCEL_BUFFERING,
          SettingKeys.ENCODING,
          SettingKeys.FLUSH,
          SettingKeys.CACHE_CONTROL,
          SettingKeys.HEADERS,
          SettingKeys.LISTEN,
          SettingKeys.EMITTER_ON,
          SettingKeys.SLOW_READER,
          SettingKeys.CONCURRENCY,
          SettingKeys.REQUESTS,
          SettingKeys.KEEP_ALIVE,
          SettingKeys.TIMEOUT,
          SettingKeys.MODEL,
          SettingKeys.PROFILE,
          SettingKeys.HTTP,
          SettingKeys.STREAMS_PER_CONNECTION,
          SettingKeys.H2_WINDOW,
          SettingKeys.REQUEST_HEADERS,
          SettingKeys.CLIENT_ON,
          TargetKeys.TARGET_NAME,
          TargetKeys.KIND,
          TargetKeys.SHAPERS,
          TargetKeys.POOL_UPSTREAM,
          TargetKeys.PROXY,
          TargetKeys.CONFIG,
          TargetKeys.TARGET_PATH,
          TargetKeys.TARGET_MTU,
          TargetKeys.TARGET_ON,
          TargetKeys.ADDRESS,
          TargetKeys.EXTERNAL,
          TargetKeys.REASON,
          TargetKeys.TLS,
          TargetKeys.CA_FILE,
          TargetKeys.INSECURE,
          GuardKeys.PACING_TOLERANCE,
          GuardKeys.CERTIFY_SECTION,
          GuardKeys.CERTIFY_RUNS,
          GuardKeys.CERTIFY_CEILING,
          GuardKeys.CERTIFY_FRAMES,
          GuardKeys.CERTIFY_FRAME_SIZE,
          GuardKeys.CERTIFY_INTERVAL,
          ProbeKeys.ADAPTIVE_TARGET,
          ProbeKeys.PARAMETER,
          ProbeKeys.LOW,
          ProbeKeys.HIGH,
          ProbeKeys.TOLERANCE,
          ProbeKeys.COALESCING_ABOVE,
          ProbeKeys.MAX_CELLS,
          ProbeKeys.SIZES,
          ProbeKeys.ATTEMPTS,
          ProbeKeys.STALL_OVER,
          ProbeKeys.BISECT_TOLERANCE,
          ProbeKeys.ATTEMPT_TIMEOUT,
          ProbeKeys.KA_REQUESTS,
          ProbeKeys.KA_BODY,
          ProbeKeys.KA_CLIENT_NODELAY,
          ProbeKeys.KA_STALL_OVER,
          ProbeKeys.SERVER_NAME,
          ProbeKeys.SERVER_RCVBUF,
          ProbeKeys.SERVER_READ_DELAY,
          ProbeKeys.SERVER_NODELAY,
          ProbeKeys.SERVER_PATH,
          ProbeKeys.SERVER_MTU,
          CLUSTER_NAME,
          CLUSTER_AT,
          CLUSTER_JOIN,
          CLUSTER_SECRET_FILE,
          CLUSTER_LEASE);

  /** The keys of a section, in reference order. */
  public static List<Key> in(Section section) {
    return ALL.stream().filter(k -> k.section() == section).toList();
  }

  /** Their names: what is allowed in that section. */
  public static List<String> names(Section section) {
    return in(section).stream().map(Key::name).toList();
  }

  /**
   * The settings a sweep may vary, in reference order: every cell setting (not the headers maps,
   * not listen).
   */
  public static List<Key> sweepable() {
    return Arrays.stream(Setting.values()).map(Setting::key).toList();
  }

  /** The target keys a kind takes. */
  public static List<String> targetKeys(TargetKind kind) {
    List<String> out = new ArrayList<>();
    for (Key k : in(TARGET)) if (k.appliesTo().contains(kind)) out.add(k.name());
    return out;
  }
}
