package flushlab.cluster;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.PfxOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import javax.net.ssl.SSLException;
import org.bouncycastle.asn1.edec.EdECObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The certificate every member of one lab presents on the clustered event bus, and the only one it
 * trusts there. Its Ed25519 key is derived from the lab's secret (an HMAC of the lab's name and
 * version under it), and Ed25519 signs deterministically, so every member that holds the secret
 * makes this same certificate, byte for byte, and no one else can: the bus runs TLS 1.3 with client
 * certificates required, so a connection from a peer without the secret ends in its handshake,
 * before a single bus frame is read. Hazelcast's membership (which has no authentication in its
 * open-source edition) grants nothing on the bus: a member that knows only the cluster name can
 * neither send to an agent nor receive what is sent to an address it registers, since senders
 * refuse its certificate.
 *
 * <p>Vert.x hands the bus's options to its server and client through their JSON form, which keeps
 * PEM values and drops a trust manager given as an object; so the trust is this certificate as PEM,
 * the same on both sides.
 */
public final class BusCertificate {
  private final String certPem;
  private final byte[] keyStore;
  private final PrivateKey key;
  private final X509Certificate cert;

  private BusCertificate(String certPem, byte[] keyStore, PrivateKey key, X509Certificate cert) {
    this.certPem = certPem;
    this.keyStore = keyStore;
    this.key = key;
    this.cert = cert;
  }

  /** The certificate as PEM (public: the same for every member of the lab). */
  public String certPem() {
    return certPem;
  }

  /**
   * The in-memory PKCS#12 store's password: the store never leaves this process, and Vert.x reads
   * no Ed25519 key as PEM.
   */
  private static final String STORE_PASSWORD = "flushlab-bus";

  /**
   * The one subject of a lab's bus certificate; the lab's name is in it, for whoever inspects a
   * capture.
   */
  static String subject(String lab) {
    return "CN=flushlab lab " + lab + " event bus";
  }

  /**
   * Derives the lab's bus certificate from its spec (name, version, secret); the same on every
   * member.
   */
  public static BusCertificate of(ClusterSpec spec) {
    byte[] seed =
        spec.mac(
            "event-bus-key|"
                + spec.name()
                + "|"
                + spec.version()); // 32 bytes: an Ed25519 private key
    try {
      Ed25519PrivateKeyParameters bcKey = new Ed25519PrivateKeyParameters(seed, 0);
      SubjectPublicKeyInfo publicKey =
          new SubjectPublicKeyInfo(
              new AlgorithmIdentifier(EdECObjectIdentifiers.id_Ed25519),
              bcKey.generatePublicKey().getEncoded());
      PrivateKey key =
          KeyFactory.getInstance("Ed25519")
              .generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, seed));
      X500Name name = new X500Name(subject(spec.name()));
      // fixed serial and validity: the certificate must come out the same on every member, whenever
      // made
      X509CertificateHolder cert =
          new X509v3CertificateBuilder(
                  name,
                  BigInteger.ONE,
                  Date.from(Instant.parse("2020-01-01T00:00:00Z")),
                  Date.from(Instant.parse("2099-12-31T00:00:00Z")),
                  name,
                  publicKey)
              .build(new JcaContentSignerBuilder("Ed25519").build(key));
      X509Certificate x509 =
          (X509Certificate)
              CertificateFactory.getInstance("X.509")
                  .generateCertificate(new ByteArrayInputStream(cert.getEncoded()));
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("lab", key, STORE_PASSWORD.toCharArray(), new X509Certificate[] {x509});
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      store.store(bytes, STORE_PASSWORD.toCharArray());
      return new BusCertificate(
          pem("CERTIFICATE", cert.getEncoded()), bytes.toByteArray(), key, x509);
    } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
      throw new IllegalStateException(
          "cannot make the lab's event-bus certificate: " + e.getMessage(), e);
    } finally {
      Arrays.fill(seed, (byte) 0);
    }
  }

  private static String pem(String label, byte[] der) {
    return "-----BEGIN "
        + label
        + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END "
        + label
        + "-----\n";
  }

  /**
   * The bus's own TLS (Vert.x's server and client for the bus, on loopback behind {@link BusGate}):
   * TLS 1.3 only, this certificate as the member's own and as the only one trusted, client
   * certificates required. (No host name is checked: the certificate names the lab, not a host, and
   * only a holder of the secret has its key.)
   */
  public EventBusOptions applyTo(EventBusOptions options) {
    return options
        .setSsl(true)
        .setKeyCertOptions(keyCert())
        .setTrustOptions(trust())
        .setTrustAll(false)
        .setClientAuth(ClientAuth.REQUIRED)
        .setEnabledSecureTransportProtocols(new LinkedHashSet<>(PROTOCOLS));
  }

  /**
   * The gate's side of a peer's handshake (Netty's, so the gate sees the peer before and after it):
   * the same certificate, the peer's required.
   */
  SslContext serverContext() {
    try {
      return SslContextBuilder.forServer(key, cert)
          .trustManager(cert)
          .clientAuth(io.netty.handler.ssl.ClientAuth.REQUIRE)
          .protocols(PROTOCOLS)
          .sslProvider(SslProvider.JDK)
          .build();
    } catch (SSLException e) {
      throw new IllegalStateException("cannot set up the event bus's TLS: " + e.getMessage(), e);
    }
  }

  /** The gate's connection to the bus behind it, as a member connects. */
  NetClientOptions clientOptions(NetClientOptions options) {
    options
        .setSsl(true)
        .setKeyCertOptions(keyCert())
        .setTrustOptions(trust())
        .setTrustAll(false)
        .setHostnameVerificationAlgorithm("")
        .setEnabledSecureTransportProtocols(new LinkedHashSet<>(PROTOCOLS));
    return options;
  }

  private static final List<String> PROTOCOLS = List.of("TLSv1.3");

  private PfxOptions keyCert() {
    return new PfxOptions().setValue(Buffer.buffer(keyStore)).setPassword(STORE_PASSWORD);
  }

  private PemTrustOptions trust() {
    return new PemTrustOptions()
        .addCertValue(Buffer.buffer(certPem.getBytes(StandardCharsets.US_ASCII)));
  }
}
