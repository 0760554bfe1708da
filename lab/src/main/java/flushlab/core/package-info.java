/**
 * The foundation every package stands on: files a user names, units, the lab's clock, the hiccup
 * meter that tells this host's stalls from a proxy's holding, the frame format, Vert.x on epoll.
 *
 * <p>{@code UserFiles} (every file a user names: a regular file, read through a bounded read, UTF-8
 * checked with the position), {@code Named} (kinds as enums inside, words at the edges: {@code
 * BYTE_THRESHOLD} is {@code byte-threshold} in YAML, flags, messages and JSON), units ({@code
 * 250ms}, {@code 2KiB}, {@code 64KiB/s}), the shared clock ({@code LabClock}), the hiccup meter
 * ({@code HiccupMeter}, {@code StallLog}, {@code StallFigures}, {@code SchedStat} and {@code
 * PollerWait} (each a {@code ProcReading}: a /proc file read again in place), {@code WaitLog} and
 * {@code RunWaits} (the loops' waits for a core, held against each read), {@code LoopStallLedger}:
 * this process's own stalls, host and loops apart, a loop's run time and wait for a core read from
 * the kernel; {@code ThreadWaits}: the path's other processes' threads' waits; {@code HostQuiet}: a
 * bounded wait for a quiet moment before a spoiled run is measured once more), the frame format
 * ({@code FrameCodec}), Vert.x on epoll ({@code LabVertx}), {@code LoopListener} (a plain listener
 * that accepts on the loop that serves), {@code LoopPlacement} (the emitter's and the relays'
 * listeners on loops apart), {@code Resources} (text from the jar), {@code Build} (version and
 * commit stamped at build time), {@code IoErrors}, {@code ProcFiles}, {@code IdleWatch}
 */
package flushlab.core;
