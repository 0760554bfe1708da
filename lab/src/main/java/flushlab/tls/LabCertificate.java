package flushlab.tls;

import flushlab.core.IoErrors;
import flushlab.core.UserFiles;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateException;

/**
 * A certificate and its private key as PEM files: one given by the user, or a self-signed one the
 * lab makes at start (for "localhost", through Netty's generator). The lab's clients pin the
 * lab-made one: they trust exactly that certificate, so a lab server needs no CA and no name.
 */
public record LabCertificate(Path certPem, Path keyPem, boolean madeByLab) {
  private static LabCertificate shared;

  /**
   * The lab's own self-signed certificate, made once per process and deleted when it exits. Its key
   * is ECDSA P-256: a handshake signs about ten times cheaper than with RSA-2048, so the lab's own
   * servers spend as little as they can of two shared cores on new connections.
   */
  @SuppressWarnings("deprecation") // Netty's generator is meant for tests and labs; this is a lab
  public static synchronized LabCertificate labMade() {
    if (shared == null) {
      SelfSignedCertificate c;
      try {
        c = new SelfSignedCertificate("localhost", "EC", 256);
      } catch (CertificateException e) {
        throw new IllegalStateException(
            "cannot make the lab's self-signed certificate: " + e.getMessage(), e);
      }
      Path cert = c.certificate().toPath();
      Path key = c.privateKey().toPath();
      cert.toFile().deleteOnExit();
      key.toFile().deleteOnExit();
      shared = new LabCertificate(cert, key, true);
    }
    return shared;
  }

  /** A certificate the user gave (--cert, --key): both must be readable PEM files. */
  public static LabCertificate given(String certFlag, Path cert, String keyFlag, Path key) {
    requirePem(certFlag, cert, "CERTIFICATE");
    requirePem(keyFlag, key, "PRIVATE KEY");
    return new LabCertificate(cert, key, false);
  }

  /** The most a PEM file a user names may hold (a certificate chain is a few KiB). */
  public static final long MAX_PEM_BYTES = 1L << 20;

  /**
   * A PEM file's bytes: a regular file of at most {@link #MAX_PEM_BYTES}, read through a bounded
   * read.
   */
  public static byte[] readPem(String flag, Path file) {
    try {
      return UserFiles.read(file, MAX_PEM_BYTES, flag);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          flag + ": cannot read " + file + " (" + IoErrors.describe(e) + ")");
    }
  }

  private static void requirePem(String flag, Path file, String label) {
    String text;
    try {
      text = new String(UserFiles.read(file, MAX_PEM_BYTES, flag), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          flag + ": cannot read " + file + " (" + IoErrors.describe(e) + ")");
    }
    if (!text.contains("-----BEGIN") || !text.contains(label)) {
      throw new IllegalArgumentException(
          flag + ": " + file + " is not a PEM file with a " + label + " block");
    }
  }

  /**
   * Copies the pair into {@code folder} (a proxy's private work folder) as cert.pem, key.pem and
   * cert-and-key.pem (HAProxy reads both from one file); the key files are readable by the owner
   * only.
   */
  public ProxyFiles writeInto(Path folder) throws IOException {
    Path cert = folder.resolve("cert.pem");
    Path key = folder.resolve("key.pem");
    Path both = folder.resolve("cert-and-key.pem");
    Files.copy(certPem, cert, StandardCopyOption.REPLACE_EXISTING);
    Files.copy(keyPem, key, StandardCopyOption.REPLACE_EXISTING);
    String certText = Files.readString(certPem);
    Files.writeString(
        both, certText + (certText.endsWith("\n") ? "" : "\n") + Files.readString(keyPem));
    for (Path p : new Path[] {key, both}) {
      try {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // not a POSIX file system: the folder itself is private
      }
    }
    return new ProxyFiles(cert, key, both);
  }

  /** The three files a proxy template can name: {{tls_cert}}, {{tls_key}}, {{tls_pem}}. */
  public record ProxyFiles(Path cert, Path key, Path certAndKey) {}
}
