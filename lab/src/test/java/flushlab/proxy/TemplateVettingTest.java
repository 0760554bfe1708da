package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * An agent starts a coordinator's proxy template only when no directive in it runs a program or
 * loads code from a path: every template the lab ships passes, and each way of running a program
 * that the proxies document is refused with its line.
 */
class TemplateVettingTest {
  @Test
  void everyShippedTemplatePasses() throws Exception {
    int checked = 0;
    try (Stream<Path> files = Files.list(Path.of("scenarios/proxies"))) {
      for (Path f : files.toList()) {
        String name = f.getFileName().toString();
        ProxyKind kind = ProxyKind.of(name.substring(0, name.indexOf('-')));
        assertThat(kind).as(name).isNotNull();
        assertThat(TemplateVetting.problems(kind, Files.readString(f))).as(name).isEmpty();
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(30);
  }

  @Test
  void directivesThatRunProgramsAreRefusedByLine() {
    Map<ProxyKind, List<String>> attacks =
        Map.of(
            ProxyKind.APACHE2,
                List.of(
                    "ErrorLog \"|/bin/sh -c 'id > /tmp/x'\"",
                    "CustomLog |/usr/bin/logger combined",
                    "RewriteMap m prg:/bin/cat",
                    "LoadModule evil_module /tmp/evil.so",
                    "ScriptAlias /cgi/ /tmp/"),
            ProxyKind.NGINX,
                List.of(
                    "perl_modules /tmp;",
                    "content_by_lua_block { os.execute('id') }",
                    "load_module /tmp/evil.so;"),
            ProxyKind.HAPROXY,
                List.of("program evil", "  external-check command /bin/sh", "lua-load /tmp/x.lua"),
            ProxyKind.LIGHTTPD,
                List.of(
                    "include_shell \"/bin/id\"",
                    "accesslog.filename = \"|/bin/cat\"",
                    "cgi.assign = ( \"\" => \"\" )"),
            ProxyKind.VARNISH,
                List.of("C{ system(\"id\"); }C", "import evil from \"/tmp/libvmod_evil.so\";"),
            ProxyKind.H2O,
                List.of(
                    "error-log: \"| /bin/sh\"",
                    "fastcgi.spawn: \"exec /bin/sh\"",
                    "mruby.handler: |"),
            ProxyKind.SQUID,
                List.of("url_rewrite_program /bin/sh", "external_acl_type x %SRC /bin/sh"),
            ProxyKind.TRAFFICSERVER,
                List.of("/tmp/evil.so", "map / http://x @plugin=/tmp/evil.so"));
    attacks.forEach(
        (kind, lines) -> {
          for (String line : lines) {
            String template = "# a template\nlisten 1\n" + line + "\n";
            List<String> problems = TemplateVetting.problems(kind, template);
            assertThat(problems).as(kind + ": " + line).hasSize(1);
            assertThat(problems.get(0)).startsWith("line 3: ");
          }
        });
    assertThat(
            TemplateVetting.problems(ProxyKind.APACHE2, "# ErrorLog \"|/bin/sh\" in a comment\n"))
        .isEmpty();
    assertThat(
            TemplateVetting.problems(
                ProxyKind.APACHE2,
                "LoadModule proxy_module /usr/lib/apache2/modules/mod_proxy.so\n"))
        .isEmpty();
  }
}
