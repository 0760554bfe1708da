package flushlab.targets;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What the results record about a proxy the lab ran, so a published table cannot drift from the
 * binary and config that produced it.
 *
 * @param effectiveConfig the configuration as the proxy parsed it ({@code nginx -T}, {@code caddy
 *     adapt}), or null when the proxy cannot print it (then {@code effectiveConfigNote} says so)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProcessInfo(
    String proxy,
    String version,
    long pid,
    String configTemplate,
    String configText,
    String effectiveConfig,
    String effectiveConfigNote) {}
