/**
 * Orchestration, above the instruments: a run or a map, on this host or a lab's agents, certified
 * first, into one outcome.
 *
 * <p>{@code ScenarioRunner} (sites or agents, warm-up, then {@code ScenarioMeasuring}:
 * certification, cells, the flush-trigger map, bisection; each run through a {@code Measure},
 * {@code LocalMeasurer} on this host; within a {@code RunBudget}), {@code MapSession} (the map once
 * certified: {@code ClientPasses}, a {@code MapPass} as each kind of client, accepting compression
 * and not, with a {@code SilentStream} beside the cells for an idle timeout; {@code PairReplays},
 * the models of two stages, {@code PairsToldFirst} parting many pairs alike before any is replayed,
 * {@code AlikeTeller} measuring the cell that tells two alike apart, {@code FlushPinning} the cell
 * that pins a compressor's count the accepting pass left loose, and {@code UndecidedAnswers} when
 * several still replay alike or stalls or the budget left twins unreplayed, {@code TwinCheck} the
 * cell one mechanism verified alone is held to before it is given (where a twin of two stages would
 * show), {@code PassStalls} this host's stalls during a pass's cells, {@code StalledCellsAgain} the
 * cells a refused model differed on only where this host stalled, measured on the target again,
 * {@code StalledOnTheModel} a cell replayed through this host's stall, replayed on the model again,
 * {@code NagleCheck} a threshold then Nagle held to the cell a hold in Nagle's place would fail;
 * through {@code MapLab}, what it needs of the runner), {@code ModelReplay} (a model's relay where
 * the target ran, every cell measured on it and compared), {@code StallJudge} + {@code RunStalls}
 * (a run's merged reads held against this process's stalls), {@code Exclusion} (why a run says
 * nothing of the target: the emitter late, a host stall, a share missing; decisions compare its
 * cause, outputs print its sentence), {@code Bisector}, {@code CellRequest}, {@code Outcome} and
 * the results it carries, {@code Warmup}, {@code ProbeScenarioRunner} + {@code ProbeOutcome},
 * {@code GatewayRounds}, {@code MapAnswer}, {@code SoakBench}, {@code MapBench}, {@code IdleProbe}
 * ({@code probe idle}: think times doubled, then halved, against one started target; a cut during a
 * host stall measured once more; {@code TrialStalls}, the stalls that count against a trial),
 * {@code RemoteLab} (where servers and client run when not on this host: the one seam the cluster
 * plugs into; a run on agents is the same pipeline, its {@code OnAgents} (placement, clocks) and
 * each run's {@code AgentShare}s in the one {@code Outcome})
 */
package flushlab.run;
