package flushlab.scenario;

import flushlab.client.BatchResult;
import flushlab.client.StreamResult;
import java.util.ArrayList;
import java.util.List;

/** All runs of one target in one cell, and the aggregate of the runs the guards kept. */
public record TargetCellResult(String target, Cell cell, List<RunRecord> runs, BatchResult included) {

  public static TargetCellResult of(String target, Cell cell, List<RunRecord> runs) {
    List<StreamResult> kept = new ArrayList<>();
    for (RunRecord r : runs) if (!r.excluded()) kept.addAll(r.result().streamResults());
    return new TargetCellResult(target, cell, List.copyOf(runs), new BatchResult(kept));
  }

  public int excludedRuns() {
    return (int) runs.stream().filter(RunRecord::excluded).count();
  }

}
