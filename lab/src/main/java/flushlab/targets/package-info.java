/**
 * What a scenario measures: the direct path, a built-in relay, a real proxy, or a server the lab
 * did not start.
 *
 * <p>{@code Target} (sealed; {@code kind()} a {@code TargetKind}, {@code speaksTls()}, {@code
 * describe()}, {@code start()}), {@code RunningTargets} (start in order, stop together)
 */
package flushlab.targets;
