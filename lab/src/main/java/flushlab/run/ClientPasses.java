package flushlab.run;

import flushlab.client.BatchResult;
import flushlab.client.ClientProfile;
import flushlab.client.RequestPlan;
import flushlab.coding.ContentCoding;
import flushlab.core.HostPort;
import flushlab.core.Units;
import flushlab.map.CellPlan;
import flushlab.map.CompressionFinding;
import flushlab.map.FlushTrigger;
import flushlab.map.TriggerKind;
import flushlab.scenario.Cell;
import flushlab.scenario.Setting;
import flushlab.targets.Target;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The map's passes as each kind of client: the scenario's client first, then the compression step,
 * the same target asked as the other kind (a client that accepts compression when the first did
 * not, and one that does not when the target compressed for the first). A client that accepts
 * compression and was answered without it costs one short cell, not a second pass.
 */
final class ClientPasses {
  private final MapLab lab;
  private final MapPass passes;

  ClientPasses(MapLab lab) {
    this.lab = lab;
    this.passes = new MapPass(lab);
  }

  /**
   * What the passes measured and answered.
   *
   * @param mine the scenario's client's own pass's answer
   * @param answer that answer with what compression showed
   * @param firstPass the cells of the scenario's client's pass
   * @param asItIs the pass of the client the target sent the stream to as it is (uncompressed), to
   *     which a model of two stages is fitted
   * @param asItIsAnswer its answer, or null when none
   * @param heldOnly a stream held only when compressed, described, or null
   * @param acceptingPass the pass of the client that accepts compression, where one was measured
   * @param ended the map stops here: interrupted, or the target failed
   */
  record Passes(
      FlushTrigger mine,
      FlushTrigger answer,
      List<TargetCellResult> firstPass,
      List<TargetCellResult> asItIs,
      FlushTrigger asItIsAnswer,
      String heldOnly,
      List<TargetCellResult> acceptingPass,
      boolean ended) {}

  /**
   * The passes, their cells added to {@code results}, within {@code deadline} (System.nanoTime).
   */
  Passes run(
      Target target,
      Measure measure,
      Certification cert,
      List<TargetCellResult> results,
      Consumer<String> announce,
      long deadline)
      throws Exception {
    Cell base = lab.scenario().cells().get(0);
    boolean accepts =
        !CellRequest.plan(
                base,
                HostPort.parse("-", "127.0.0.1:1", false),
                null,
                lab.scenario().requestHeaders().toSend())
            .acceptedCodings()
            .isEmpty();
    FlushTrigger mine =
        passes.run(
            new MapPass.Asked(target, base, false, measure, cert, results, announce),
            ModelReplay.secondsLeft(deadline));
    if (lab.interrupted()
        || mine.kind() == TriggerKind.INCONCLUSIVE
            && mine.verdict().contains("the target failed")) {
      return new Passes(mine, mine, List.of(), List.of(), null, null, List.of(), true);
    }
    List<TargetCellResult> firstPass = List.copyOf(results);
    // the compression step: the same target asked as the other kind of client
    String coding = codingSeen(results);
    FlushTrigger answer = mine;
    // the pass of the client the target sent the stream as it is (to which a model of two stages is
    // fitted), and its answer
    List<TargetCellResult> asItIs = coding == null ? firstPass : List.of();
    FlushTrigger asItIsAnswer = coding == null ? mine : null;
    String heldOnly = null;
    // the pass of the client that accepts compression, where one was measured
    List<TargetCellResult> acceptingPass = List.of();
    if (accepts) {
      String client = clientText(base, false);
      if (coding == null) {
        answer = mine.withCompression(CompressionFinding.of(null, client, mine, null, null, null));
      } else {
        announce.accept(
            "map: "
                + target.name()
                + " answered "
                + client
                + " in "
                + coding
                + "; now as a client that does not "
                + "accept compression ("
                + ClientProfile.BARE.text()
                + ")");
        int before = results.size();
        FlushTrigger plain =
            passes.run(
                new MapPass.Asked(
                    target,
                    base.withProfile(ClientProfile.BARE),
                    true,
                    measure,
                    cert,
                    results,
                    announce),
                ModelReplay.secondsLeft(deadline));
        if (results.size() == before) plain = null;
        heldOnly =
            heldOnlyCompressed(results.subList(0, before), results.subList(before, results.size()));
        answer =
            mine.withCompression(
                CompressionFinding.of(
                    coding, client, mine, ClientProfile.BARE.text(), plain, heldOnly));
        asItIs = List.copyOf(results.subList(before, results.size()));
        asItIsAnswer = plain;
        acceptingPass = firstPass;
      }
    } else {
      Cell asBrowser = base.withProfile(ClientProfile.BROWSER);
      String client = clientText(asBrowser, false);
      // one short cell first: a target that does not compress for this client costs the map half a
      // second, not a second pass
      Cell probe =
          (base.stream().endpoint().isOpenAi()
                  ? asBrowser
                  : asBrowser.with(Setting.FRAME_SIZE, COMPRESSION_PROBE.frameSizeBytes() + "B"))
              .with(Setting.INTERVAL, Units.formatDuration(COMPRESSION_PROBE.intervalNanos()))
              .with(Setting.FRAMES, Integer.toString(COMPRESSION_PROBE.frames()))
              .withIndex(results.size());
      RunRecord rec =
          lab.interrupted() || ModelReplay.secondsLeft(deadline) < 2
              ? null
              : measure.run(target, probe, probe.index(), 0);
      if (rec != null) results.add(TargetCellResult.of(target.name(), probe, List.of(rec)));
      // the coding from every run, one the pacing guard excluded too: the response head said it,
      // whatever the pacing
      BatchResult answered = rec == null ? null : results.get(results.size() - 1).everyStream();
      if (answered != null && answered.streamsOk() == 0) {
        // no answer, no finding: "without compression" would be a fact read from nothing
        announce.accept(
            "map: asked as "
                + client
                + ": no stream was answered ("
                + answered.firstError()
                + "); compression not checked");
      } else if (answered != null) {
        ContentCoding seen = answered.dominantCoding();
        announce.accept(
            "map: asked as "
                + client
                + ": "
                + (seen == null
                    ? "answered without compression"
                    : "answered in " + seen.text() + "; mapping it as that client"));
        if (seen == null) {
          answer =
              mine.withCompression(
                  CompressionFinding.of(null, client, null, clientText(base, false), mine, null));
        } else {
          int before = results.size();
          FlushTrigger accepting =
              passes.run(
                  new MapPass.Asked(target, asBrowser, false, measure, cert, results, announce),
                  ModelReplay.secondsLeft(deadline));
          if (results.size() == before) accepting = null;
          acceptingPass = List.copyOf(results.subList(before, results.size()));
          heldOnly =
              heldOnlyCompressed(
                  results.subList(before - 1, results.size()), results.subList(0, before - 1));
          answer =
              mine.withCompression(
                  CompressionFinding.of(
                      seen.text(), client, accepting, clientText(base, false), mine, heldOnly));
        }
      }
    }
    return new Passes(
        mine, answer, firstPass, asItIs, asItIsAnswer, heldOnly, acceptingPass, false);
  }

  /**
   * A stream both kinds of client read (same frames, size, interval) that came compressed and held
   * (whole at its end, or at least twice the frames per read) to one and streamed to the other:
   * described, or null when there is none.
   */
  static String heldOnlyCompressed(
      List<TargetCellResult> accepting, List<TargetCellResult> others) {
    for (TargetCellResult a : accepting) {
      BatchResult ab = a.included();
      if (ab.dominantCoding() == null || ab.frames() == 0) continue;
      for (TargetCellResult o : others) {
        BatchResult ob = o.included();
        if (!o.cell().stream().equals(a.cell().stream())
            || ob.frames() == 0
            || ob.dominantCoding() != null) continue;
        if (ob.framesPerRead() <= 1.25 && ab.framesPerRead() >= 2 * ob.framesPerRead()) {
          return String.format(
              "the same stream, %d frames of %d B every %s, read %.2f frames per read in %s and %.2f without it",
              a.cell().frames(),
              a.cell().stream().frameBytes(),
              Units.formatDuration(a.cell().stream().intervalNanos()),
              ab.framesPerRead(),
              ab.dominantCoding().text(),
              ob.framesPerRead());
        }
      }
    }
    return null;
  }

  /**
   * The one cell that asks whether a target compresses for a client that accepts it: 200 frames of
   * 60 B every 2 ms.
   */
  private static final CellPlan COMPRESSION_PROBE = new CellPlan(60, 2_000_000L, 200);

  /** The coding most cells' bodies arrived in, or null when none was compressed. */
  private static String codingSeen(List<TargetCellResult> results) {
    Map<String, Integer> n = new LinkedHashMap<>();
    for (TargetCellResult r : results) {
      ContentCoding c = r.everyStream().dominantCoding();
      if (c != null) n.merge(c.text(), 1, Integer::sum);
    }
    return n.entrySet().stream()
        .max(Map.Entry.comparingByValue())
        .map(Map.Entry::getKey)
        .orElse(null);
  }

  String clientText(Cell cell, boolean identity) {
    RequestPlan p =
        CellRequest.plan(
            cell, HostPort.parse("-", "127.0.0.1:1", false), null, lab.headersFor(identity));
    String ae = String.join(", ", p.acceptedCodings().stream().map(ContentCoding::text).toList());
    return cell.profile().text() + (ae.isEmpty() ? ", no Accept-Encoding" : ", accepting " + ae);
  }
}
