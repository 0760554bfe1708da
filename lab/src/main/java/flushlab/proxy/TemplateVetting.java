package flushlab.proxy;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What an agent checks in a proxy template a coordinator sent before it starts the proxy from it:
 * no directive that runs a program (piped logs, CGI, rewrite programs, helpers, {@code program}
 * sections, external checks, shell includes) or loads code from a path of the sender's choosing
 * (modules, plugins, Lua, Perl, mruby, inline C). A proxy runs as the agent's user, often root, so
 * a template is code; the lab's own templates need none of these. This is a list of the directives
 * each proxy documents for running or loading code, not a sandbox: the agent's TLS-authenticated
 * bus is what keeps strangers from sending templates at all.
 */
public final class TemplateVetting {
  private TemplateVetting() {}

  /**
   * One directive an agent refuses: the pattern (on one line, comments removed) and what it does.
   */
  private record Rule(Pattern pattern, String why) {
    static Rule of(String regex, String why) {
      return new Rule(Pattern.compile(regex, Pattern.CASE_INSENSITIVE), why);
    }
  }

  private static final Map<ProxyKind, List<Rule>> RULES = new EnumMap<>(ProxyKind.class);

  static {
    RULES.put(
        ProxyKind.APACHE2,
        List.of(
            Rule.of(
                "^\\s*(ErrorLog|CustomLog|TransferLog|GlobalLog|ForensicLog)\\s+\"?\\|",
                "a piped log runs a program"),
            Rule.of("^\\s*RewriteMap\\s+\\S+\\s+\"?prg:", "a rewrite map program"),
            Rule.of(
                "^\\s*(ExtFilterDefine|ScriptAlias|ScriptAliasMatch|ScriptSock|Action)\\b",
                "runs programs or scripts"),
            Rule.of("(ExecCGI|cgi-script)", "runs CGI scripts"),
            Rule.of(
                "^\\s*LoadModule\\s+\\S+\\s+(?!\"?/usr/lib/apache2/modules/[\\w.-]+\"?\\s*$)",
                "a module from outside /usr/lib/apache2/modules"),
            Rule.of("^\\s*(LoadFile|Lua\\w*)\\b", "loads code")));
    RULES.put(
        ProxyKind.NGINX,
        List.of(
            Rule.of("^\\s*(perl\\w*|\\w*_by_lua\\w*|lua_\\w+)\\b", "runs Perl or Lua"),
            Rule.of(
                "^\\s*load_module\\s+(?!/usr/(lib|share)/nginx/modules/[\\w.-]+\\s*;)",
                "a module from outside nginx's modules folder")));
    RULES.put(
        ProxyKind.HAPROXY,
        List.of(
            Rule.of("^\\s*program\\s", "a program section runs a program"),
            Rule.of(
                "^\\s*(external-check|insecure-fork-wanted|lua-load\\S*|lua-prepend-path)\\b",
                "runs a program or loads Lua"),
            Rule.of("\\boption\\s+external-check\\b", "an external check runs a program")));
    RULES.put(
        ProxyKind.LIGHTTPD,
        List.of(
            Rule.of("^\\s*include_shell\\b", "runs a shell command at start"),
            Rule.of("=\\s*\"\\|", "a piped log runs a program"),
            Rule.of(
                "(cgi\\.assign|magnet\\.|bin-path|mod_cgi|mod_magnet)", "runs programs or Lua")));
    RULES.put(
        ProxyKind.VARNISH,
        List.of(
            Rule.of("C\\{", "inline C"),
            Rule.of("^\\s*import\\s+\\w+\\s+from\\b", "a vmod from a path")));
    RULES.put(
        ProxyKind.H2O,
        List.of(
            Rule.of("(error-log|access-log|path)\\s*:\\s*\"?\\|", "a piped log runs a program"),
            Rule.of("(fastcgi\\.spawn|mruby\\.|file\\.custom-handler)", "runs programs or Ruby")));
    RULES.put(
        ProxyKind.SQUID,
        List.of(
            Rule.of("^\\s*\\w+_program\\b", "a helper program"),
            Rule.of(
                "^\\s*(auth_param\\s+\\S+\\s+program|external_acl_type|logfile_daemon|loadable_modules|eui_lookup)\\b",
                "a helper program or module")));
    RULES.put(
        ProxyKind.TRAFFICSERVER,
        List.of(
            Rule.of(
                "(^\\s*[\\w.-]*/[\\w./-]*\\.so\\b|@plugin=\\S*/)",
                "a plugin from a path (only plugins by name, from its plugin folder)"),
            Rule.of("proxy\\.config\\.plugin\\.plugin_dir", "moves the plugin folder")));
    RULES.put(ProxyKind.CADDY, List.of());
  }

  /**
   * The lines of {@code template} an agent refuses to run for {@code kind}, each named with its
   * line number; empty when none.
   */
  public static List<String> problems(ProxyKind kind, String template) {
    List<String> found = new ArrayList<>();
    String[] lines = template.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = uncommented(kind, lines[i]);
      for (Rule r : RULES.getOrDefault(kind, List.of())) {
        if (r.pattern.matcher(line).find()) {
          found.add("line " + (i + 1) + ": " + line.strip() + " (" + r.why + ")");
          break;
        }
      }
    }
    return found;
  }

  /** The line without its comment: '#' for all but Varnish's VCL, which also has '//'. */
  private static String uncommented(ProxyKind kind, String line) {
    int hash = line.indexOf('#');
    String s = hash >= 0 && line.strip().startsWith("#") ? "" : line;
    if (kind == ProxyKind.VARNISH) {
      int slashes = s.indexOf("//");
      if (slashes >= 0) s = s.substring(0, slashes);
    }
    return s;
  }
}
