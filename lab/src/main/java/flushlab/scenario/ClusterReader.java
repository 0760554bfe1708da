package flushlab.scenario;

import flushlab.core.HostPort;
import flushlab.core.Units;
import flushlab.netpath.NetworkPath;
import flushlab.targets.Target;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code cluster:} section and the {@code on:} keys that place roles on a lab's agents. A
 * cluster scenario places its emitter, its client load and each relay and proxy target on named
 * agents; what cannot be placed yet (an external target, a veth path, TLS, bisection) is refused by
 * name rather than run on the coordinator's host in silence.
 */
final class ClusterReader {
  /** Agents one scenario may name, for the client load. */
  static final int MAX_CLIENT_AGENTS = 64;

  static final int MAX_JOIN = 64;

  ClusterPlacement placement;

  ClusterReader(
      YamlNode root,
      Path scenarioPath,
      List<Target> targets,
      Scenario.Adaptive adaptive,
      NetworkPath path,
      ErrorCollector errors) {
    YamlNode emitterOn = placementNode(root, "emitter");
    YamlNode clientOn = placementNode(root, "client");
    YamlNode list = root.map.get(Keys.TARGETS.name());
    YamlNode cluster = root.map.get(Keys.CLUSTER_SECTION.name());
    if (cluster == null) {
      String without = "applies only to a scenario with a cluster: section (see docs/CLUSTER.md)";
      if (emitterOn != null) errors.error(emitterOn, "emitter.on", without);
      if (clientOn != null) errors.error(clientOn, "client.on", without);
      if (list != null && list.kind == YamlNode.Kind.LIST) {
        for (int i = 0; i < list.list.size(); i++) {
          YamlNode t = list.list.get(i);
          if (t.kind == YamlNode.Kind.MAP && t.map.containsKey("on"))
            errors.error(t.map.get("on"), "targets[" + i + "].on", without);
        }
      }
      return;
    }
    if (!errors.isMap(cluster, "cluster")) return;
    errors.onlyKnown(cluster, "cluster.", Keys.names(Key.Section.CLUSTER));
    String name = agentName(cluster.map.get("name"), "cluster.name", cluster, errors);
    String at = errors.value(cluster, Keys.CLUSTER_AT);
    String lease = errors.value(cluster, Keys.CLUSTER_LEASE);
    List<HostPort> join = new ArrayList<>();
    YamlNode j = cluster.map.get(Keys.CLUSTER_JOIN.name());
    if (j == null) {
      errors.errorAtKey(
          cluster, "join", "cluster.join", "required: the agents to join, e.g. [10.0.0.1:5800]");
    } else if (j.kind != YamlNode.Kind.LIST || j.list.isEmpty() || j.list.size() > MAX_JOIN) {
      errors.error(
          j,
          "cluster.join",
          "must be a list of 1.." + MAX_JOIN + " host:port, e.g. [10.0.0.1:5800]");
    } else {
      for (int i = 0; i < j.list.size(); i++) {
        String v = errors.scalar(j.list.get(i), "cluster.join[" + i + "]");
        if (v == null) continue;
        try {
          join.add(HostPort.parse("cluster.join[" + i + "]", v, false));
        } catch (IllegalArgumentException e) {
          errors.error(j.list.get(i), "cluster.join[" + i + "]", e.getMessage());
        }
      }
    }
    Path secretFile = null;
    if (cluster.map.containsKey("secret_file")) {
      String f = errors.scalar(cluster.map.get("secret_file"), "cluster.secret_file");
      if (f != null) {
        Path parent = scenarioPath.toAbsolutePath().getParent();
        secretFile = parent == null ? Path.of(f) : parent.resolve(f);
      }
    }
    String emitterAgent = null;
    if (emitterOn == null)
      errors.errorAtKey(
          cluster,
          "name",
          "emitter.on",
          "required with a cluster: section: the agent that runs the emitter");
    else emitterAgent = agentName(emitterOn, "emitter.on", null, errors);
    List<String> clients = new ArrayList<>();
    if (clientOn == null) {
      errors.errorAtKey(
          cluster,
          "name",
          "client.on",
          "required with a cluster: section: the agents that run the client load, e.g. [b, c]");
    } else if (clientOn.kind != YamlNode.Kind.LIST
        || clientOn.list.isEmpty()
        || clientOn.list.size() > MAX_CLIENT_AGENTS) {
      errors.error(
          clientOn,
          "client.on",
          "must be a list of 1.." + MAX_CLIENT_AGENTS + " agent names, e.g. [b, c]");
    } else {
      Set<String> seen = new LinkedHashSet<>();
      for (int i = 0; i < clientOn.list.size(); i++) {
        String a = agentName(clientOn.list.get(i), "client.on[" + i + "]", null, errors);
        if (a != null && !seen.add(a))
          errors.error(
              clientOn.list.get(i), "client.on[" + i + "]", "agent " + a + " is named twice");
      }
      clients.addAll(seen);
    }
    Map<String, String> targetOn = new LinkedHashMap<>();
    for (int i = 0;
        list != null
            && list.kind == YamlNode.Kind.LIST
            && i < list.list.size()
            && i < targets.size();
        i++) {
      YamlNode t = list.list.get(i);
      Target target = targets.get(i);
      String p = "targets[" + i + "]";
      if (target instanceof Target.Direct d) {
        if (d.speaksTls())
          errors.error(t, p + ".tls", "a cluster scenario's targets speak plain TCP so far");
      } else if (target instanceof Target.Relay || target instanceof Target.Process) {
        if (target.speaksTls())
          errors.error(t, p + ".tls", "a cluster scenario's targets speak plain TCP so far");
        if (!t.map.containsKey("on")) {
          errors.errorAtKey(
              t,
              "name",
              p + ".on",
              "required in a cluster scenario: the agent that runs this " + target.kind().text());
        } else {
          String a = agentName(t.map.get("on"), p + ".on", null, errors);
          if (a != null) targetOn.put(target.name(), a);
        }
      } else {
        errors.error(
            t,
            p + ".kind",
            "a cluster scenario places direct, relay and process targets on agents; kind "
                + target.kind().text()
                + " is not placed on agents yet (run it in a scenario of its own)");
      }
    }
    if (adaptive != null)
      errors.errorAtKey(root, "adaptive", "adaptive", "a cluster scenario does not bisect yet");
    if (path != null && path.kind() != NetworkPath.Kind.LOOPBACK) {
      errors.errorAtKey(
          root,
          "path",
          "path",
          "a cluster scenario's network is the hosts' own; path: veth is for one host");
    }
    if (errors.any() || name == null || emitterAgent == null) return;
    placement =
        new ClusterPlacement(
            name,
            HostPort.parse("cluster.at", at, false),
            join,
            secretFile,
            Units.parseDurationNanos(lease),
            emitterAgent,
            clients,
            targetOn);
  }

  private static YamlNode placementNode(YamlNode root, String section) {
    YamlNode s = root.map.get(section);
    return s != null && s.kind == YamlNode.Kind.MAP ? s.map.get("on") : null;
  }

  /** An agent's (or the lab's) name: 1..64 letters, digits, '.', '-' or '_'. */
  private static String agentName(
      YamlNode n, String where, YamlNode parent, ErrorCollector errors) {
    if (n == null) {
      errors.errorAtKey(
          parent,
          "name",
          where,
          "required: the lab's cluster name, as its agents were started with");
      return null;
    }
    String v = errors.scalar(n, where);
    if (v == null) return null;
    String problem = ClusterPlacement.nameProblem(v);
    if (problem != null) {
      errors.error(n, where, problem);
      return null;
    }
    return v;
  }
}
