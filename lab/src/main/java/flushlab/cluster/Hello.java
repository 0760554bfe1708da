package flushlab.cluster;

import flushlab.core.HostPort;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The handshake a joining agent makes with a member before it joins the cluster, so that a member
 * of another lab is refused with the reason: another cluster name, another version, or another
 * secret (each side proves it holds the secret by an HMAC over the other's random nonce, so the
 * secret never crosses the wire). Lines of ASCII:
 *
 * <pre>
 * joiner: flushlab-hello 1 NAME VERSION NONCE
 * member: refused cluster-name NAME | refused version VERSION | challenge NONCE MAC
 * joiner: proof MAC
 * member: welcome AGENT | refused secret
 * </pre>
 */
final class Hello {
  static final int MAX_LINE = 512;
  static final int MAX_CONNECTIONS = 64;

  /** Handshakes open at once from one address: one slow peer cannot keep other agents out. */
  static final int MAX_PER_PEER = 4;

  static final long HEAD_TIMEOUT_MS = 5_000;

  private Hello() {}

  /** Why a joiner was not let in, in words for the person who started it. */
  static final class Refused extends Exception {
    Refused(String message) {
      super(message);
    }
  }

  private static final SecureRandom RANDOM = new SecureRandom();

  private static String nonce() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }

  private static boolean sameMac(String expectedHex, String givenHex) {
    return MessageDigest.isEqual(
        expectedHex.getBytes(StandardCharsets.US_ASCII),
        givenHex.getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * The joiner's side, blocking (it runs before this agent joins anything): returns the member's
   * agent name, or throws {@link Refused} with the reason, or an IOException when the member cannot
   * be reached or answers nothing in time.
   */
  static String ask(ClusterSpec spec, HostPort member) throws IOException, Refused {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(member.host(), member.port()), (int) HEAD_TIMEOUT_MS);
      s.setSoTimeout((int) HEAD_TIMEOUT_MS);
      OutputStream out = s.getOutputStream();
      BufferedReader in =
          new BufferedReader(
              new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII), MAX_LINE);
      String mine = nonce();
      out.write(
          ("flushlab-hello 1 " + spec.name() + " " + spec.version() + " " + mine + "\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String[] answer = words(readLine(in, member));
      String where = "the member at " + member.host() + ":" + member.port();
      if (answer.length == 3 && answer[0].equals("refused") && answer[1].equals("cluster-name")) {
        throw new Refused(
            where
                + " is in cluster '"
                + answer[2]
                + "', not '"
                + spec.name()
                + "' (two labs on one network never meet)");
      }
      if (answer.length == 3 && answer[0].equals("refused") && answer[1].equals("version")) {
        throw new Refused(
            where
                + " runs flushlab "
                + answer[2]
                + ", this agent "
                + spec.version()
                + " (the members of one lab run one version)");
      }
      if (answer.length == 2 && answer[0].equals("refused") && answer[1].equals("busy")) {
        throw new IOException(
            where
                + " is answering as many handshakes as it takes (from this address or in all); try again");
      }
      if (answer.length != 3 || !answer[0].equals("challenge"))
        throw new IOException(where + " did not answer as a flushlab agent");
      String expected = hex(spec.mac("member|" + mine + "|" + spec.name() + "|" + spec.version()));
      if (!sameMac(expected, answer[2])) {
        out.write("refused secret\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        throw new Refused(where + " does not share this cluster's secret");
      }
      out.write(
          ("proof "
                  + hex(spec.mac("joiner|" + answer[1] + "|" + spec.name() + "|" + spec.version()))
                  + "\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String[] last = words(readLine(in, member));
      if (last.length == 2 && last[0].equals("welcome")) return last[1];
      if (last.length == 2 && last[0].equals("refused") && last[1].equals("secret")) {
        throw new Refused(
            where + " does not share this cluster's secret (it refused this agent's proof)");
      }
      throw new IOException(where + " did not answer as a flushlab agent");
    }
  }

  private static String readLine(BufferedReader in, HostPort member) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c; (c = in.read()) >= 0 && c != '\n'; ) {
      if (line.length() >= MAX_LINE)
        throw new IOException(member + " sent a line over " + MAX_LINE + " bytes");
      line.append((char) c);
    }
    return line.toString().trim();
  }

  private static String[] words(String line) {
    return line.isEmpty() ? new String[0] : line.split(" ");
  }

  /**
   * The member's side: a listener at the spec's hello port that answers joiners. Every connection
   * has {@link #HEAD_TIMEOUT_MS} to finish, at most {@link #MAX_CONNECTIONS} are open at once and
   * {@link #MAX_PER_PEER} from one address, and no line may pass {@link #MAX_LINE} bytes.
   */
  static Future<NetServer> listen(Vertx vertx, ClusterSpec spec, Consumer<String> log) {
    NetServer server =
        vertx.createNetServer(
            new NetServerOptions().setHost(spec.at().host()).setPort(spec.at().port()));
    int[] open = {0};
    Map<String, Integer> perPeer = new HashMap<>(); // on the server's one context, as open is
    server.connectHandler(
        socket -> {
          String from = socket.remoteAddress().hostAddress();
          int mine = perPeer.getOrDefault(from, 0);
          if (open[0] >= MAX_CONNECTIONS || mine >= MAX_PER_PEER) {
            log.accept(
                "refused a handshake from "
                    + socket.remoteAddress()
                    + ": "
                    + (mine >= MAX_PER_PEER
                        ? MAX_PER_PEER + " from that address already open"
                        : MAX_CONNECTIONS + " already open"));
            socket.end(Buffer.buffer("refused busy\n"));
            return;
          }
          open[0]++;
          perPeer.merge(from, 1, Integer::sum);
          long timer = vertx.setTimer(HEAD_TIMEOUT_MS, t -> socket.close());
          socket.closeHandler(
              v -> {
                open[0]--;
                perPeer.computeIfPresent(from, (k, n) -> n > 1 ? n - 1 : null);
                vertx.cancelTimer(timer);
              });
          new MemberSide(spec, socket, log);
        });
    return server.listen();
  }

  /** One joiner's handshake, on the member's event loop. */
  private static final class MemberSide {
    private final ClusterSpec spec;
    private final NetSocket socket;
    private final Consumer<String> log;
    private final StringBuilder line = new StringBuilder();
    private String mine;
    private String joinerNonce;

    MemberSide(ClusterSpec spec, NetSocket socket, Consumer<String> log) {
      this.spec = spec;
      this.socket = socket;
      this.log = log;
      socket.handler(this::onBytes);
    }

    private void onBytes(Buffer b) {
      for (int i = 0; i < b.length(); i++) {
        byte c = b.getByte(i);
        if (c != '\n') {
          if (line.length() >= MAX_LINE) {
            socket.close();
            return;
          }
          line.append((char) (c & 0xff));
          continue;
        }
        String text = line.toString().trim();
        line.setLength(0);
        onLine(words(text));
      }
    }

    private void onLine(String[] w) {
      String from = socket.remoteAddress().toString();
      if (mine == null) {
        if (w.length != 5 || !w[0].equals("flushlab-hello") || !w[1].equals("1")) {
          socket.close();
          return;
        }
        if (!w[2].equals(spec.name())) {
          log.accept("refused an agent from " + from + ": it asked for cluster '" + w[2] + "'");
          socket.end(Buffer.buffer("refused cluster-name " + spec.name() + "\n"));
          return;
        }
        if (!w[3].equals(spec.version())) {
          log.accept("refused an agent from " + from + ": it runs flushlab " + w[3]);
          socket.end(Buffer.buffer("refused version " + spec.version() + "\n"));
          return;
        }
        joinerNonce = w[4];
        mine = nonce();
        socket.write(
            "challenge "
                + mine
                + " "
                + hex(spec.mac("member|" + joinerNonce + "|" + spec.name() + "|" + spec.version()))
                + "\n");
        return;
      }
      if (w.length == 2
          && w[0].equals("proof")
          && sameMac(
              hex(spec.mac("joiner|" + mine + "|" + spec.name() + "|" + spec.version())), w[1])) {
        socket.end(Buffer.buffer("welcome " + spec.agent() + "\n"));
        return;
      }
      log.accept("refused an agent from " + from + ": it does not share this cluster's secret");
      socket.end(Buffer.buffer("refused secret\n"));
    }
  }
}
