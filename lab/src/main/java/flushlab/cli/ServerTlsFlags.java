package flushlab.cli;

import com.beust.jcommander.Parameter;
import flushlab.tls.LabCertificate;
import flushlab.tls.ServerTls;
import java.nio.file.Path;

/**
 * The certificate a lab server listens with over TLS: the user's pair, or one the lab makes at
 * start.
 */
final class ServerTlsFlags {
  @Parameter(
      names = "--cert",
      description =
          "TLS: the server's certificate (PEM); default: a self-signed one for localhost, made at start")
  Path cert;

  @Parameter(names = "--key", description = "TLS: the private key (PEM) of --cert")
  Path key;

  /** The TLS to listen with; --cert and --key come together, and only with TLS asked for. */
  ServerTls tls(boolean asked, String askFlag) {
    if (!asked) {
      if (cert != null || key != null) {
        throw new IllegalArgumentException(
            (cert != null ? "--cert" : "--key") + ": only with " + askFlag);
      }
      return null;
    }
    if ((cert == null) != (key == null)) {
      throw new IllegalArgumentException(
          cert == null ? "--key: give --cert with it" : "--cert: give --key with it");
    }
    return cert == null
        ? ServerTls.selfSigned()
        : new ServerTls(LabCertificate.given("--cert", cert, "--key", key));
  }

  /** One line for the banner: which certificate, and where a client finds it to trust. */
  static String describe(ServerTls tls) {
    return tls.certificate().madeByLab()
        ? "a self-signed certificate made at start (trust it with --ca-file "
            + tls.certificate().certPem()
            + ", or --insecure)"
        : "certificate " + tls.certificate().certPem();
  }
}
