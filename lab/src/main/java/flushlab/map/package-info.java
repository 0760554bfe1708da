/**
 * The flush-trigger map's reasoning: what each cell showed, one fit per mechanism, the models of
 * two stages, the answer as a runnable model and its replay's verdict.
 *
 * <p>{@code CellEvidence} (what one cell showed), one fit per mechanism ({@code ByteThresholdFit},
 * {@code SplitBufferFit} (a buffer written N bytes at a time), {@code HoldTimerFit}, {@code
 * PeriodicTimerFit}, {@code EventCountFit}, {@code ThresholdOrTimerFit} with the cork, {@code
 * OneLateFit} (a wait that follows the interval), {@code WindowFit}: grants of a flow-control
 * window, read from the cell that fell behind), {@code TriggerInference} (weighs the fits: one
 * answer, the encoder nobody flushes, or inconclusive with the cells to measure next), {@code
 * SocketStageFit}, {@code OneLateAfterFit}, {@code CorkAfterFit} and {@code HoldingPairFit} (two
 * holding stages in series, a threshold and a timer, two timers, two thresholds, one-late in front
 * of one, or either in front of the cork, simulated on each cell's frames by {@code PairSimulation}
 * into a {@code Simulated} cell and held against the measured one by {@code SimulatedCell}, the
 * cork at each ceiling a connection shows by {@code CorkCeiling}, held to a cell's steady pace by
 * {@code SteadyGaps} and a clock last to the whole parts of a cell's gaps by {@code ClockPace}, a
 * hold before the cork given its clock twin by {@code CorkAfterFit.clockTwins}, a threshold given
 * as the middle of the span its cells fit alike by {@code ThresholdSpan}, a chain read into its
 * stages by {@code ChainStages}, two thresholds fitted by the classes of values the frames tell
 * apart and pinned by the cells that split them, {@code ThresholdPairFit}), {@code
 * CompressorFlushFit} (a compressor flushing on its timer or every N input bytes beside a hold or a
 * clock, in front of the cork, or by its output behind a threshold or in front of the cork, beside
 * the {@code PlainStage} the other client saw, a timer read off the sizes of the releases ({@code
 * ReleaseSizes}, with the clock's ticks a few ms either way, {@code TickJitter}; the values tied
 * with the one given, said where they span more than a model's tolerance; the values tried, {@code
 * FlushValues}), and the cell that pins a count the usual cells leave loose, {@code
 * CompressorPinning}, read at its own phase behind a clock; what each flush of an input count
 * weighs to a threshold behind it, on the lab's own encoder at that count's cadence, {@code
 * EncoderSizes}) (candidates of two mechanisms, {@code TwoStageCandidate}: a holding stage then
 * Nagle, one-late or the cork, the stage fitted by {@code HoldingStageFits} to the cells read back
 * as it released them; for a compressing target, fitted to the plain client's pass and joined with
 * the compressor the other client saw, or that compressor decoded on delivery, or a compressor that
 * holds too, either side of the plain client's stage ({@code BesideACompressor}, {@code
 * NextWriteInFront} one flushing on the next write in front of it; {@code NextWriteTelling} the
 * cell that tells a compressor on the next write from one on a timer); the map gives one only once
 * replayed), {@code TriggerKind}, {@code FlushTrigger}, {@code CompressionFinding} (what each kind
 * of client saw, and whether compression is the cause), {@code ShaperModel} (an answer as a chain
 * of the lab's shapers, or why there is none; a holding stage beside a compressor, or before
 * first-content ({@code FirstContentFit.after}), as two stages, with the orders no cell tells apart
 * as {@code alike}), {@code Twin} (a model of two stages that releases as one mechanism does on the
 * usual cells, and the cell that tells them apart: {@code OneLateInFront} of a hold, a hold before
 * the cork read as a threshold or a timer, {@code HoldBeforeTheCork}, a hold behind a clock, {@code
 * HoldBehindAClock}, two thresholds in series, {@code ThresholdsInSeries}), {@code Replay} (the
 * target's cells against the model's replay of them: {@code ReplayVerdict}, of a {@code CellMatch}
 * a cell: verified, or the cell that differs; {@code CellSpreads} where two cells agree although
 * their medians differ; {@code ClockPhases} the waits a model's clock gives a cell over its phases;
 * {@code ClientsApart} when the cells it refused were all another client's), {@code
 * ModelExpectation} ({@code map --expect}, a scenario's {@code expect:}), {@code IdleCut} (what the
 * silent stream beside the cells showed, and the idle stage it puts in a model), {@code Discovery}
 * + {@code CellPlan}, {@code MapProber} (discover, decide, locate, within a budget; it measures
 * through a callback)
 */
package flushlab.map;
