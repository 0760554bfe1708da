/**
 * TLS for the lab's servers and its client.
 *
 * <p>{@code LabCertificate}, {@code ServerTls}, {@code ClientTls} (system CAs, a CA file, the lab's
 * certificate pinned, or not at all)
 */
package flushlab.tls;
