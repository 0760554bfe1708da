package flushlab.tls;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.PemTrustOptions;
import java.nio.file.Path;

/**
 * How a lab client checks a TLS server. External targets are checked as a browser would (the JDK's
 * CA list, the host name against the certificate) unless the user names a CA file or asks to skip
 * the check; the lab's own servers are pinned (exactly the lab's certificate is trusted, so the
 * address's name is not checked: the pin already says who the server is).
 */
public record ClientTls(Mode mode, Path caFile) {
  public enum Mode {
    /** The JDK's default CAs and the host name (RFC 2818). */
    SYSTEM,
    /** The CAs in a PEM file the user gave, and the host name. */
    CA_FILE,
    /** Exactly one certificate, the lab's own; no host name check. */
    PINNED,
    /** No check at all (--insecure): said aloud where it is chosen. */
    INSECURE
  }

  public static final String INSECURE_WARNING =
      "warning: TLS certificate checking is off (--insecure): anyone between here and the target could read and alter the stream";

  public static ClientTls system() {
    return new ClientTls(Mode.SYSTEM, null);
  }

  public static ClientTls caFile(Path file) {
    return new ClientTls(Mode.CA_FILE, file);
  }

  public static ClientTls pinned(Path cert) {
    return new ClientTls(Mode.PINNED, cert);
  }

  public static ClientTls insecure() {
    return new ClientTls(Mode.INSECURE, null);
  }

  /**
   * From the user's flags: a CA file, --insecure, or neither (system CAs). Both at once is refused:
   * one asks for a check the other turns off.
   */
  public static ClientTls fromFlags(Path caFile, boolean insecure) {
    if (caFile != null && insecure) {
      throw new IllegalArgumentException(
          "--ca-file and --insecure contradict each other: give one (a CA to check against) or the other (no check)");
    }
    if (insecure) return insecure();
    if (caFile == null) return system();
    LabCertificate.readPem("--ca-file", caFile); // a regular file within the cap, before any work
    return caFile(caFile);
  }

  /** The options a Vert.x connect takes. */
  public ClientSSLOptions sslOptions() {
    ClientSSLOptions o = new ClientSSLOptions();
    switch (mode) {
      case SYSTEM -> o.setHostnameVerificationAlgorithm("HTTPS");
      case CA_FILE ->
          o.setHostnameVerificationAlgorithm("HTTPS")
              .setTrustOptions(
                  new PemTrustOptions()
                      .addCertValue(Buffer.buffer(LabCertificate.readPem("the CA file", caFile))));
      case PINNED ->
          o.setHostnameVerificationAlgorithm("")
              .setTrustOptions(
                  new PemTrustOptions()
                      .addCertValue(
                          Buffer.buffer(LabCertificate.readPem("the certificate", caFile))));
      case INSECURE -> o.setHostnameVerificationAlgorithm("").setTrustAll(true);
    }
    return o;
  }

  /**
   * The server name to send (SNI) when connecting to {@code host}: the host when it is a name; none
   * for an address literal (SNI carries names only); "localhost", the name the lab's certificate is
   * made for, when that certificate is pinned (a proxy that picks its certificate by name, such as
   * Caddy, then finds it).
   */
  public String serverName(String host) {
    if (mode == Mode.PINNED) return "localhost";
    boolean literal =
        host.indexOf(':') >= 0 || host.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    return literal ? null : host;
  }

  /** For results: how the server was checked (no secrets here). */
  public String describe() {
    return switch (mode) {
      case SYSTEM -> "TLS, checked against the system's CAs and the host name";
      case CA_FILE -> "TLS, checked against the CAs in " + caFile + " and the host name";
      case PINNED -> "TLS, the lab's own certificate pinned";
      case INSECURE -> "TLS, certificate NOT checked (--insecure)";
    };
  }
}
