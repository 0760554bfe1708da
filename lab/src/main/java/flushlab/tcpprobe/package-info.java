/**
 * Probes of the TCP layer: uploads and keep-alives.
 *
 * <p>The TCP-layer probes: {@code UploadServer}, {@code UploadAttempt}, {@code UploadProbe}, {@code
 * KeepAliveProbe}, {@code ProbeSite}
 */
package flushlab.tcpprobe;
