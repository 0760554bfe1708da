/**
 * Real proxies the lab starts from templates, records and stops.
 *
 * <p>{@code ProxyProcess} (a real nginx/HAProxy/Caddy/lighttpd/Apache
 * httpd/Varnish/H2O/Squid/Traffic Server from a template: start, wait until it listens, record
 * version and effective config, stop), {@code ProxyKind} (a table: how each runs, its version and
 * effective-configuration commands with placeholders, what it speaks upstream; code only where
 * Varnish and Traffic Server need it), {@code TrafficServerLayout} (a sectioned template cut into
 * Traffic Server's config folder and runroot), {@code TemplateVetting} (what an agent refuses in a
 * template a coordinator sent: directives that run programs or load code)
 */
package flushlab.proxy;
