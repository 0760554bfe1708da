package flushlab.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import flushlab.map.CellEvidence;
import flushlab.map.CompressionFinding;
import flushlab.map.FlushTrigger;
import flushlab.map.IdleCut;
import flushlab.map.ShaperModel;
import flushlab.map.TriggerKind;
import java.util.ArrayList;
import java.util.List;

/**
 * What `flushlab map --json` writes: the answer (for the client the map was asked to be), how long
 * it took, and the cells it rests on; {@code compression} holds what the target did for clients
 * that accept compression and for those that do not; {@code model} the answer as the lab's own
 * shapers (a chain `--shape` takes), or why there is none; {@code replay} what replaying the model
 * said (unless --no-verify, and always for an answer of two mechanisms), or null; {@code then} the
 * second mechanism after {@code kind} (nagle), or null; {@code idle} what the silent stream beside
 * the cells showed (cut after how long, or watched how long without a cut), or null when none was
 * watched; {@code before} a mechanism in front of {@code kind} (first-content before a byte
 * threshold), or null. A host that was not certified has no answer: kind inconclusive, and it says
 * why.
 */
public record MapAnswer(
    String target,
    boolean certified,
    TriggerKind kind,
    Double thresholdBytes,
    Double thresholdBodyBytes,
    Double timerMs,
    Integer events,
    String verdict,
    double seconds,
    int cellCount,
    List<CellEvidence> cells,
    List<String> evidence,
    List<String> next,
    CompressionFinding compression,
    ShaperModel model,
    String replay,
    TriggerKind then,
    IdleCut idle,
    TriggerKind before,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<ReplayedCell> replayedCells) {

  /** The answer of a map's outcome for its one target, which took {@code seconds}. */
  public static MapAnswer of(String target, Outcome o, double seconds) {
    FlushTrigger trigger = o.triggers().values().stream().findFirst().orElse(null);
    List<CellEvidence> cells = new ArrayList<>();
    for (TargetCellResult r : o.results()) cells.add(r.evidence(o.certification().emitToRecvMs()));
    // why, as the certification said it (a host that stalled through it is named so, never the
    // target: an answer that said only "not certified" read as a map's failure, s257)
    String uncertified =
        o.certified()
            ? "the map ended before it inferred anything"
            : "the host is " + o.certification().verdict();
    return trigger == null
        ? new MapAnswer(
            target,
            o.certified(),
            TriggerKind.INCONCLUSIVE,
            null,
            null,
            null,
            null,
            uncertified,
            seconds,
            0,
            cells,
            List.of(),
            List.of(),
            null,
            ShaperModel.none(uncertified),
            null,
            null,
            null,
            null,
            List.of())
        : new MapAnswer(
            target,
            o.certified(),
            trigger.kind(),
            trigger.thresholdBytes(),
            trigger.thresholdBodyBytes(),
            trigger.timerMs(),
            trigger.events(),
            trigger.verdict(),
            seconds,
            cells.size(),
            cells,
            trigger.evidence(),
            trigger.next(),
            trigger.compression(),
            ShaperModel.of(trigger),
            trigger.replay(),
            trigger.then(),
            trigger.idle(),
            trigger.before(),
            o.replayedCells());
  }
}
