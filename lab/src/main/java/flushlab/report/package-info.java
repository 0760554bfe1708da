/**
 * Results as they are published: typed reports and the files a results folder holds.
 *
 * <p>{@code RunReport} and {@code ProbeReport} (the typed models of published results), {@code
 * ResultsWriter}, {@code ResultsCsv}, {@code SummaryMarkdown}, {@code Environment}, {@code
 * ReproBundle} ({@code map --repro}: the model as a scenario, the answer, a README, and {@code
 * report.page.ReplayPage}: each replayed cell's stream through the target and through the model,
 * overlaid); {@code report.page}: the pages drawn from results.json
 */
package flushlab.report;
