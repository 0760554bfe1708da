package flushlab.cluster;

import flushlab.core.HostPort;
import flushlab.scenario.ClusterPlacement;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Who a lab agent is and which lab it belongs to: the lab's cluster name, its shared secret, this
 * lab's version, where this agent listens and which members it joins.
 *
 * <p>Ports, from {@code at}'s port P: P the hello handshake (plain TCP, a few lines), P+1
 * Hazelcast's member protocol, P+2 Vert.x's event bus. The Hazelcast cluster name is derived from
 * the name, the version and the secret, so members that differ in any of them never join each other
 * even if the handshake were skipped; the handshake is what says which one differs, plainly.
 *
 * @param name the lab's cluster name (letters, digits, '-', '_', '.'; at most 64)
 * @param secret the shared secret (at least 12 bytes); never printed
 * @param version this lab's version (members of one lab run one version)
 * @param agent this agent's name (unique in the lab; the same characters as a cluster name)
 * @param at where this agent listens (its hello port; Hazelcast and the event bus take the next
 *     two)
 * @param join members to join (their hello ports); empty: this agent starts the lab's cluster
 */
public record ClusterSpec(
    String name, byte[] secret, String version, String agent, HostPort at, List<HostPort> join) {
  public static final int MAX_NAME = ClusterPlacement.MAX_NAME;
  public static final int MIN_SECRET_BYTES = 12;

  public ClusterSpec {
    requireName("cluster name", name);
    requireName("agent name", agent);
    if (secret.length < MIN_SECRET_BYTES) {
      throw new IllegalArgumentException(
          "the cluster secret has "
              + secret.length
              + " bytes; it needs at least "
              + MIN_SECRET_BYTES);
    }
    if (at.port() > 65533)
      throw new IllegalArgumentException(
          "cluster port " + at.port() + " leaves no room for the next two (at most 65533)");
    join = List.copyOf(join);
    secret = secret.clone(); // the caller wipes its copy once the spec is made
  }

  /** A copy: callers cannot change the spec's secret, nor wipe it. */
  @Override
  public byte[] secret() {
    return secret.clone();
  }

  static void requireName(String what, String value) {
    String problem = ClusterPlacement.nameProblem(value);
    if (problem != null) throw new IllegalArgumentException("the " + what + " " + problem);
  }

  public int hazelcastPort() {
    return at.port() + 1;
  }

  public int eventBusPort() {
    return at.port() + 2;
  }

  /**
   * The name Hazelcast sees: members agree on it only if they agree on name, version and secret.
   */
  public String hazelcastClusterName() {
    return "flushlab-"
        + HexFormat.of().formatHex(mac("cluster|" + name + "|" + version)).substring(0, 24);
  }

  /** HMAC-SHA256 of {@code text} under the secret. */
  byte[] mac(String text) {
    try {
      Mac m = Mac.getInstance("HmacSHA256");
      m.init(new SecretKeySpec(secret, "HmacSHA256")); // the field, not the accessor's copy
      return m.doFinal(text.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
    }
  }

  @Override
  public String toString() {
    return "ClusterSpec["
        + name
        + ", agent "
        + agent
        + ", version "
        + version
        + ", at "
        + at.host()
        + ":"
        + at.port()
        + ", join "
        + join
        + "]";
  }
}
