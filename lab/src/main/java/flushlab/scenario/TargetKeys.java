package flushlab.scenario;

import static flushlab.scenario.Key.Section.TARGET;

import flushlab.core.Named;
import flushlab.proxy.ProxyKind;
import flushlab.scenario.Key.Type;
import flushlab.targets.TargetKind;
import java.util.Arrays;

/**
 * The keys of one entry of a scenario's {@code targets:} list: its kind and what that kind takes.
 * Every key is listed in {@link Keys#ALL}, which gives the reference its order.
 */
public final class TargetKeys {
  private TargetKeys() {}

  // ---- targets
  public static final Key TARGET_NAME =
      Key.of("name", TARGET, Type.ROW_NAME, null, "unique; the row name in every table")
          .range(1, 48)
          .forKinds(TargetKind.DIRECT, TargetKind.RELAY, TargetKind.PROCESS, TargetKind.EXTERNAL);
  public static final Key KIND =
      Key.of(
              "kind",
              TARGET,
              Type.CHOICE,
              null,
              "`direct` (client to emitter), `relay` (a built-in relay the lab starts in front of its emitter), `process` (a real proxy "
                  + "binary the lab starts from a config template), `external` (a server the lab did not start)")
          .choices(Named.texts(TargetKind.class))
          .forKinds(TargetKind.DIRECT, TargetKind.RELAY, TargetKind.PROCESS, TargetKind.EXTERNAL);
  public static final Key SHAPERS =
      Key.of(
              "shapers",
              TARGET,
              Type.STRUCTURED,
              null,
              "shaper specs applied in order, e.g. `[byte-threshold=2KiB]`, `[\"threshold-or-timer,bytes=2KiB,after=200ms\"]`; see the "
                  + "shaper reference in docs/SHAPERS.md")
          .shape("non-empty list of shaper specs")
          .forKinds(TargetKind.RELAY);
  public static final Key POOL_UPSTREAM =
      Key.of(
              "pool_upstream",
              TARGET,
              Type.BOOL,
              "false",
              "`true`: keep upstream connections alive and reuse them across client connections; `false`: a fresh upstream connection "
                  + "per client connection")
          .forKinds(TargetKind.RELAY);
  public static final Key PROXY =
      Key.of(
              "proxy",
              TARGET,
              Type.CHOICE,
              null,
              "the proxy to start (Debian packages of those names); a trafficserver template is one file "
                  + "cut into sections, each opened by `# file: NAME` (records.config and remap.config at least), written into its private config folder")
          .choices(Arrays.stream(ProxyKind.values()).map(ProxyKind::text).toArray(String[]::new))
          .forKinds(TargetKind.PROCESS);
  public static final Key CONFIG =
      Key.of(
              "config",
              TARGET,
              Type.STRUCTURED,
              null,
              "a config template, relative to the scenario file and inside its folder (symbolic links resolved; at most 256 KiB; the "
                  + "shipped ones are in `scenarios/proxies/`); the lab fills in `{{listen_host}}` (127.0.0.1, or the veth path's server address), `{{listen_port}}`, "
                  + "`{{upstream_host}}`, `{{upstream_port}}` "
                  + "and `{{workdir}}` (a private folder for pid, temp and state files, deleted when the proxy stops); a template that "
                  + "terminates TLS names `{{tls_cert}}` and `{{tls_key}}` (PEM files), or `{{tls_pem}}` (both in one file, for HAProxy): the "
                  + "lab writes its self-signed certificate there and the client pins it")
          .shape("a file path")
          .forKinds(TargetKind.PROCESS);
  public static final Key TARGET_PATH =
      Key.of(
              "path",
              TARGET,
              Type.CHOICE,
              null,
              "this target's network path, when not the scenario's: list a target twice, once per path, to compare them side by side")
          .shownDefault("the scenario's `path`")
          .choices("loopback", "veth")
          .forKinds(TargetKind.DIRECT, TargetKind.RELAY, TargetKind.PROCESS);
  public static final Key TARGET_MTU =
      Key.of("mtu", TARGET, Type.INT, null, "this target's veth MTU, when not the scenario's")
          .shownDefault("the scenario's `mtu`")
          .range(576, 65535)
          .forKinds(TargetKind.DIRECT, TargetKind.RELAY, TargetKind.PROCESS);
  public static final Key ADDRESS =
      Key.of(
              "address",
              TARGET,
              Type.HOST_PORT,
              null,
              "the server to measure; it must forward to the lab's emitter for the pacing guard to audit it")
          .range(1, 65535)
          .forKinds(TargetKind.EXTERNAL);
  public static final Key TARGET_ON =
      Key.of(
              "on",
              TARGET,
              Type.TEXT,
              null,
              "with a `cluster:` section: the agent that runs this relay or proxy (required there; its upstream is the emitter on its "
                  + "agent; a proxy's template is sent to the agent, which needs the proxy installed)")
          .forKinds(TargetKind.RELAY, TargetKind.PROCESS);
  public static final Key EXTERNAL =
      Key.of(
              "external",
              TARGET,
              Type.BOOL,
              null,
              "must be `true`: the lab refuses to measure a server it did not start unless told so")
          .forKinds(TargetKind.EXTERNAL);
  public static final Key REASON =
      Key.of(
              "reason",
              TARGET,
              Type.TEXT,
              null,
              "required with `external: true`: why measuring a server the lab did not start is right; recorded in `results.json`")
          .forKinds(TargetKind.EXTERNAL);

  public static final Key TLS =
      Key.of(
              "tls",
              TARGET,
              Type.BOOL,
              "false",
              "`true`: the client speaks TLS to the target: for `direct`, the emitter's TLS listener; for `relay`, the relay terminates "
                  + "TLS (both with the lab's self-signed certificate, which the client pins; loopback only); for `external`, https with "
                  + "the certificate checked against the system's CAs and the host name (see `ca_file`, `insecure`). A `process` target "
                  + "speaks TLS when its template names `{{tls_cert}}`, `{{tls_key}}` or `{{tls_pem}}`")
          .forKinds(TargetKind.DIRECT, TargetKind.RELAY, TargetKind.EXTERNAL);
  public static final Key CA_FILE =
      Key.of(
              "ca_file",
              TARGET,
              Type.TEXT,
              null,
              "with `tls: true`: check the server's certificate against the CAs in this PEM file (relative to the scenario file) instead of "
                  + "the system's")
          .forKinds(TargetKind.EXTERNAL);
  public static final Key INSECURE =
      Key.of(
              "insecure",
              TARGET,
              Type.BOOL,
              "false",
              "with `tls: true`: do not check the server's certificate at all (a warning is printed and recorded)")
          .forKinds(TargetKind.EXTERNAL);
}
