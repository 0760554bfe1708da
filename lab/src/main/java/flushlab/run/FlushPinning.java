package flushlab.run;

import flushlab.map.CellEvidence;
import flushlab.map.CellPlan;
import flushlab.map.CompressorPinning;
import flushlab.map.FlushTrigger;
import flushlab.scenario.Cell;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Cells measured, as the client that accepts the target's coding, to pin a compressor's flush that
 * the accepting pass left loose (issue 35: the map measures more where too few releases tell,
 * rather than give a value from the middle of a range): each plan {@link
 * CompressorPinning#pinningCells} gives is measured on the target, added to the map's results (so
 * every candidate's replay is compared on it too), and handed to the fit. An output count behind a
 * threshold is pinned a cell at a time ({@link CompressorPinning#outputCountCell}), each chosen on
 * what the cells before it left.
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
    Consumer<String> announce = map.announce();
    if (accepting.isEmpty() || lab.interrupted()) return List.of();
    List<CellEvidence> pinning = new ArrayList<>();
    Cell base = accepting.get(0).cell();
    for (CellPlan plan : CompressorPinning.pinningCells(answer, acceptingCells)) {
      if (lab.interrupted()
          || ModelReplay.secondsLeft(map.deadline()) < 2 * (plan.streamMs() / 1000 + 1)) break;
      announce.accept(
          "map: the accepting cells leave the compressor's flush loose; measuring a cell that pins"
              + " it: "
              + plan);
      MapContext.OneMore more = map.oneCellMore(lab, base, plan, "pin the compressor's flush");
      if (more != null) pinning.add(more.seen());
    }
    // an output count behind a threshold: a cell at a time, each chosen on what the last left
    for (int i = 0; i < CompressorPinning.MAX_OUTPUT_PINNING_CELLS; i++) {
      CellPlan plan = CompressorPinning.outputCountCell(answer, acceptingCells, pinning);
      if (plan == null
          || lab.interrupted()
          || ModelReplay.secondsLeft(map.deadline()) < 2 * (plan.streamMs() / 1000 + 1)) break;
      announce.accept(
          "map: the accepting cells leave the compressor's output count loose; measuring a cell"
              + " that pins it: "
              + plan);
      MapContext.OneMore more = map.oneCellMore(lab, base, plan, "pin the compressor's flush");
      if (more == null) break;
      pinning.add(more.seen());
    }
    return pinning;
  }
}
