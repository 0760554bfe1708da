/**
 * The command line: one class per subcommand, flag groups; nothing below knows it.
 *
 * <p>One class per subcommand; flag groups ({@code RequestFlags}, {@code PathFlags}, {@code
 * SettingFlags}: flags that mirror settings take description and range from {@code Keys}); {@code
 * TargetFlags} (the one target of {@code map} and {@code probe idle}, from {@code --target}, {@code
 * --shape} or {@code --proxy}, and where the emitter listens for it); {@code Interruption}; {@code
 * Invocation}; {@code Progress}; {@code AnswerLines} (a map's answer as printed)
 */
package flushlab.cli;
