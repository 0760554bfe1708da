/** The self-contained pages: a run's report, a comparison, a replay. */
package flushlab.report.page;
