package flushlab.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import flushlab.client.BatchResult;
import flushlab.client.ClientProfile;
import flushlab.client.HttpVersion;
import flushlab.client.RequestPlan;
import flushlab.client.Staircase;
import flushlab.client.StreamResult;
import flushlab.core.HopProtocol;
import flushlab.core.StallFigures;
import flushlab.core.StallLog;
import flushlab.http.Header;
import flushlab.map.FlushTrigger;
import flushlab.netpath.NetworkPath;
import flushlab.report.page.ResultsFolder;
import flushlab.run.AgentShare;
import flushlab.run.Bisection;
import flushlab.run.Exclusion;
import flushlab.run.OnAgents;
import flushlab.run.Outcome;
import flushlab.run.RunRecord;
import flushlab.run.RunStalls;
import flushlab.run.TargetCellResult;
import flushlab.scenario.Cell;
import flushlab.scenario.Scenario;
import flushlab.targets.ProcessInfo;
import flushlab.targets.Target;
import flushlab.targets.TargetKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A run as it is published: everything results.json holds, in one typed model. JSON is this record
 * as Jackson writes it; results.csv, summary.md and the HdrHistogram logs render from it too, so no
 * report can say what another does not. Field names are snake_case (docs/RESULTS.md).
 */
public record RunReport(
    int schemaVersion,
    String scenario,
    String description,
    Status status,
    String startedUtc,
    @JsonIgnore long startedEpochMillis,
    @JsonProperty("elapsed_s") double elapsedSeconds,
    String command,
    Environment environment,
    String scenarioFile,
    String scenarioText,
    Scenario.Resolved scenarioResolved,
    List<TargetReport> targets,
    Guards guards,
    CertificationReport certification,
    List<CellReport> cells,
    Map<String, FlushTrigger> flushTriggerMap,
    Bisection adaptive,
    @JsonInclude(JsonInclude.Include.NON_NULL) OnAgents onAgents,
    @JsonInclude(JsonInclude.Include.NON_NULL) String stoppedEarly) {

  public static final int SCHEMA_VERSION = ResultsFolder.SCHEMA_VERSION;

  public enum Status {
    @JsonProperty("complete")
    COMPLETE,
    @JsonProperty("interrupted")
    INTERRUPTED,
    @JsonProperty("uncertified")
    UNCERTIFIED
  }

  /** A target as the results describe it; {@code address} and the reason only for external ones. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record TargetReport(
      String name,
      TargetKind kind,
      String description,
      String path,
      Integer mtu,
      String address,
      String externalReason,
      ProcessInfo process,
      @JsonProperty("upstream_http") HopProtocol upstreamHttp) {

    static TargetReport of(Target t, ProcessInfo process) {
      Target.External ext = t instanceof Target.External e ? e : null;
      Integer mtu = t.path().kind() == NetworkPath.Kind.HOST_ROUTE ? null : t.path().mtu();
      return new TargetReport(
          t.name(),
          t.kind(),
          t.describe(),
          t.path().kind().text,
          mtu,
          ext == null ? null : ext.address().toString(),
          ext == null ? null : ext.reason(),
          process,
          t.upstreamProtocol());
    }

    @JsonIgnore
    public boolean isDirect() {
      return kind == TargetKind.DIRECT;
    }
  }

  public record Guards(double pacingToleranceMs, int certifyRuns, double certifyMaxFramesPerRead) {}

  /**
   * The direct path's certification, on the scenario's own network path ({@code path}, {@code
   * mtu}).
   */
  public record CertificationReport(
      boolean certified,
      String verdict,
      double directFramesPerRead,
      String path,
      int mtu,
      List<RunEntry> runs) {}

  /**
   * One run of one target in one cell, as measured; an excluded run keeps its numbers and says why.
   * {@code upstreamBytesPerFrame} is what a frame weighed on the wire from the emitter (chunk
   * framing included; null when the emitter audited no stream): the unit of a byte threshold.
   */
  public record RunEntry(
      int run,
      boolean excluded,
      Exclusion.Cause exclusionCause,
      String exclusionReason,
      double emitterMaxLatenessMs,
      int unauditedStreams,
      Double upstreamBytesPerFrame,
      long startedEpochMs,
      long endedEpochMs,
      List<Hiccups> hiccups,
      BatchResult metrics,
      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<AgentShare> agents) {

    static List<RunEntry> of(List<RunRecord> runs) {
      List<RunEntry> out = new ArrayList<>();
      for (RunRecord r : runs) {
        Double perFrame =
            r.upstreamFrames() > 0 ? (double) r.upstreamFrameBytes() / r.upstreamFrames() : null;
        List<Hiccups> hiccups =
            r.stalls() == null ? List.of() : List.of(Hiccups.of("client", r.stalls()));
        out.add(
            new RunEntry(
                r.run(),
                r.excluded(),
                r.exclusion() == null ? null : r.exclusion().cause(),
                r.exclusionReason(),
                r.maxPacingLatenessNanos() / 1e6,
                r.unauditedStreams(),
                perFrame,
                r.startedEpochMillis(),
                r.endedEpochMillis(),
                hiccups,
                r.result(),
                r.agents()));
      }
      return out;
    }
  }

  /**
   * One process's own stalls over a run (its hiccup meter) and what they explain of the run's
   * reads: {@code host} from the meter's thread (the scheduler or the JVM stopped it), {@code
   * loops} from the event loops' ticks (the host's stalls and the lab's own code on a loop). A
   * frame read together with another is an extra frame; those read in a host stall excuse the run
   * when they are all of them, those in a loop stall alone are the lab's fault and never excuse it.
   */
  public record Hiccups(
      String process,
      StallFigures host,
      StallFigures loops,
      int frames,
      int extraFrames,
      int extraFramesInHostStalls,
      int extraFramesInLoopStallsOnly,
      String hostStall,
      String loopStall,
      int extraFramesSentTogether) {
    static Hiccups of(String process, RunStalls s) {
      return new Hiccups(
          process,
          s.host(),
          s.loops(),
          s.frames(),
          s.extraFrames(),
          s.extraInHostStalls(),
          s.extraInLoopStallsOnly(),
          s.hostStall(),
          s.loopStall(),
          s.extraSentTogether());
    }
  }

  /**
   * One stream of a cell as it arrived, for the arrival staircase: each frame's receive and emit
   * times in ms from the request (emit = receive less its emit-to-receive delay, on the lab's one
   * clock), in arrival order, at most {@link #MAX_FRAMES}; and the stream's releases (time since
   * the release before, bytes); and this host's stalls while it streamed ({@code hostStallsMs}:
   * [from, to] pairs in ms from the request, from the hiccup meter). The first complete stream of
   * the kept runs.
   */
  public record Arrivals(
      List<Double> recvMs,
      List<Double> emitMs,
      List<Double> releaseGapMs,
      List<Long> releaseBytes,
      List<double[]> hostStallsMs) {
    static final int MAX_FRAMES = 2000;

    /**
     * @param stalls this host's stalls over the kept runs (System.nanoTime spans), placed on the
     *     stream's own time axis
     */
    static Arrivals of(BatchResult kept, List<StallLog.Stall> stalls) {
      Staircase stairs = Staircase.of(kept, MAX_FRAMES);
      if (stairs == null) return null;
      StreamResult s = Staircase.firstComplete(kept); // the stream the staircase is of
      List<Double> recv = stairs.recvMs();
      var rel = s.releases();
      List<Double> relGaps = new ArrayList<>();
      List<Long> relBytes = new ArrayList<>();
      for (int i = 0; i < Math.min(MAX_FRAMES, rel.gapNanos().size()); i++) {
        relGaps.add(round3(rel.gapNanos().get(i) / 1e6));
        relBytes.add(rel.bytes().get(i));
      }
      List<double[]> stalled = new ArrayList<>();
      long request = s.timing().requestNanos();
      double end = recv.isEmpty() ? 0 : recv.get(recv.size() - 1);
      for (StallLog.Stall st : stalls) {
        if (request < 0) break;
        double from = (st.fromNanos() - request) / 1e6;
        double to = (st.toNanos() - request) / 1e6;
        if (to >= 0 && from <= end)
          stalled.add(new double[] {round3(Math.max(0, from)), round3(to)});
      }
      return new Arrivals(recv, stairs.emitMs(), relGaps, relBytes, stalled);
    }

    private static double round3(double v) {
      return Math.round(v * 1000) / 1000.0;
    }
  }

  /**
   * One target in one cell: the settings of the cell, and the kept runs together ({@code metrics})
   * beside every run.
   */
  public record CellReport(
      int cell,
      String cellLabel,
      Map<String, String> swept,
      String target,
      ClientProfile clientProfile,
      HttpVersion http,
      List<String> requestHeaders,
      int runsTotal,
      int runsExcluded,
      BatchResult metrics,
      Arrivals arrivals,
      List<RunEntry> runs,
      @JsonIgnore Cell settings) {

    /**
     * @param userHeaders the scenario's own request headers (their values are recorded as {@link
     *     RequestPlan#REDACTED}); the map's pass as a client that accepts no compression records
     *     the Accept-Encoding: identity it sent
     */
    static CellReport of(TargetCellResult r, List<Header> userHeaders) {
      Cell c = r.cell();
      RequestPlan plan =
          RequestPlan.of(c.stream(), "TARGET", 0, c.model())
              .withProfile(c.profile())
              .withHeaders(userHeaders);
      List<String> lines = new ArrayList<>(plan.headLines(c.client().keepAlive(), true));
      lines.removeIf(l -> l.startsWith("Host: "));
      return new CellReport(
          c.index(),
          c.label(),
          c.sweptByName(),
          r.target(),
          c.profile(),
          c.client().http(),
          lines,
          r.runs().size(),
          r.excludedRuns(),
          r.included(),
          Arrivals.of(r.included(), keptHostStalls(r)),
          RunEntry.of(r.runs()),
          c);
    }

    /** This host's stalls over the runs the guards kept. */
    private static List<StallLog.Stall> keptHostStalls(TargetCellResult r) {
      List<StallLog.Stall> out = new ArrayList<>();
      for (RunRecord run : r.runs())
        if (!run.excluded() && run.stalls() != null) out.addAll(run.stalls().hostSpans());
      return out;
    }

    /**
     * Why this row has no numbers, or null when it has them: every run excluded by the pacing
     * guard, or no stream of the kept runs completed. A row of zeros would read as a measurement.
     */
    @JsonIgnore
    public String noMeasurement() {
      if (runsTotal > 0 && runsExcluded == runsTotal) return "excluded (every run)";
      if (metrics.streamsOk() == 0) return "no stream completed";
      return null;
    }
  }

  public static RunReport of(Scenario s, Outcome o, String command, Environment env) {
    Status status =
        o.interrupted() ? Status.INTERRUPTED : o.certified() ? Status.COMPLETE : Status.UNCERTIFIED;
    List<TargetReport> targets = new ArrayList<>();
    for (Target t : s.targets()) targets.add(TargetReport.of(t, o.processes().get(t.name())));
    List<CellReport> cells = new ArrayList<>();
    for (TargetCellResult r : o.results())
      cells.add(
          CellReport.of(
              r, r.requestHeaders() != null ? r.requestHeaders() : s.requestHeaders().toSend()));
    return new RunReport(
        SCHEMA_VERSION,
        s.name(),
        s.description(),
        status,
        Instant.ofEpochMilli(o.startedEpochMillis()).toString(),
        o.startedEpochMillis(),
        Math.round(o.elapsedNanos() / 1e7) / 100.0,
        command,
        env,
        s.file().toString(),
        s.text(),
        s.resolved(),
        targets,
        new Guards(
            s.guards().pacingToleranceNanos() / 1e6,
            s.guards().certifyRuns(),
            s.guards().certifyMaxFramesPerRead()),
        new CertificationReport(
            o.certified(),
            o.certification().verdict(),
            o.certification().framesPerRead(),
            s.path().kind().text,
            s.path().mtu(),
            RunEntry.of(o.certification().runs())),
        cells,
        o.triggers(),
        o.bisection(),
        o.onAgents(),
        o.stoppedEarly());
  }

  @JsonIgnore
  public boolean certified() {
    return certification.certified();
  }

  @JsonIgnore
  public boolean interrupted() {
    return status == Status.INTERRUPTED;
  }

  /** The rows of one cell, in the order of the targets. */
  @JsonIgnore
  public List<CellReport> rows(int cell) {
    return cells.stream().filter(c -> c.cell() == cell).toList();
  }

  /** The cells measured, in order, each once (by its first row). */
  @JsonIgnore
  public List<CellReport> cellsMeasured() {
    List<CellReport> firsts = new ArrayList<>();
    for (CellReport c : cells)
      if (firsts.stream().noneMatch(f -> f.cell() == c.cell())) firsts.add(c);
    return firsts;
  }
}
