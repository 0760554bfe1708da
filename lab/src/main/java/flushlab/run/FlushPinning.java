package flushlab.run;

import flushlab.map.CellEvidence;
import flushlab.map.CellPlan;
import flushlab.map.CompressorFlushFit.Flush;
import flushlab.map.CompressorPinning;
import flushlab.map.FlushTrigger;
import flushlab.scenario.Cell;
import java.util.ArrayList;
import java.util.List;

/**
 * Cells measured, as the client that accepts the target's coding, to pin a compressor's flush that
 * the accepting pass left loose (issue 35: the map measures more where too few releases tell,
 * rather than give a value from the middle of a range): each plan {@link
 * CompressorPinning#pinningCells} gives is measured on the target, added to the map's results (so
 * every candidate's replay is compared on it too), and handed to the fit. A count (of the
 * compressor's input or output) behind a threshold is pinned a cell at a time ({@link
 * CompressorPinning#countCell}), each chosen on what the cells before it left.
 */
final class FlushPinning {
  private FlushPinning() {}

  /**
   * The pinning cells measured, as the accepting pass's client ({@code accepting}'s first cell);
   * empty when none is needed, the accepting pass measured nothing, or the budget has no room. A
   * cell that left no data pins nothing and is said.
   */
  static List<CellEvidence> measure(
      MapLab lab,
      MapContext map,
      FlushTrigger answer,
      List<CellEvidence> acceptingCells,
      List<TargetCellResult> accepting)
      throws Exception {
    if (accepting.isEmpty() || lab.interrupted()) return List.of();
    List<CellEvidence> pinning = new ArrayList<>();
    Cell base = accepting.get(0).cell();
    for (CellPlan plan : CompressorPinning.pinningCells(answer, acceptingCells)) {
      if (!roomFor(lab, map, plan)) break;
      CellEvidence seen = measured(lab, map, base, plan, "flush");
      if (seen != null) pinning.add(seen);
    }
    // a count behind a threshold: a cell at a time, each chosen on what the last left, the
    // input's and the output's in turn (which of them the compressor keeps, the replay tells)
    for (int i = 0; i < CompressorPinning.MAX_COUNT_PINNING_CELLS; i++) {
      Flush preferred = i % 2 == 0 ? Flush.INPUT : Flush.OUTPUT;
      CellPlan plan = CompressorPinning.countCell(answer, acceptingCells, pinning, preferred);
      if (plan == null || !roomFor(lab, map, plan)) break;
      CellEvidence seen = measured(lab, map, base, plan, "count");
      if (seen == null) break;
      pinning.add(seen);
    }
    return pinning;
  }

  /** Whether the map may measure {@code plan} still: not stopped, and twice its stream left. */
  private static boolean roomFor(MapLab lab, MapContext map, CellPlan plan) {
    return !lab.interrupted()
        && ModelReplay.secondsLeft(map.deadline()) >= 2 * (plan.streamMs() / 1000 + 1);
  }

  /**
   * {@code plan} measured as the accepting client, said first ({@code what}: the compressor's value
   * it pins); null when it left no data.
   */
  private static CellEvidence measured(
      MapLab lab, MapContext map, Cell base, CellPlan plan, String what) throws Exception {
    map.announce()
        .accept(
            "map: the accepting cells leave the compressor's "
                + what
                + " loose; measuring a cell that pins it: "
                + plan);
    MapContext.OneMore more = map.oneCellMore(lab, base, plan, "pin the compressor's flush");
    return more == null ? null : more.seen();
  }
}
