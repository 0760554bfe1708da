package flushlab.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What a probe scenario measured: each of the lab's upload servers with the settings the kernel
 * granted it and the probe's rows, and whether the run was cut short.
 */
public record ProbeOutcome(
    long startedMillis, double seconds, boolean interrupted, List<ServerResult> servers) {

  /**
   * One server: where it ran, what it was asked and granted, and what the probe saw; {@code error}
   * when it could not be measured.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ServerResult(
      String name,
      String path,
      int mtu,
      String address,
      Integer rcvbufAsked,
      Integer rcvbufGranted,
      double readDelayMs,
      boolean nodelay,
      UploadResult upload,
      KeepAliveResult keepalive,
      String error) {}

  /**
   * The upload sweep and bisection; {@code last_clean_bytes}/{@code stall_from_bytes} bound the
   * jump when there is one.
   */
  public record UploadResult(
      List<SizeRow> sweep,
      List<SizeRow> bisection,
      double baselineMs,
      Integer lastCleanBytes,
      Integer stallFromBytes,
      boolean conclusive,
      String verdict) {}

  /**
   * One size: the median and spread of its attempts, retransmits summed from TCP_INFO (null when
   * not readable).
   */
  public record SizeRow(
      int bodyBytes,
      int attempts,
      int failed,
      Double p50Ms,
      Double minMs,
      Double maxMs,
      Long retransmits,
      Double rttP50Ms) {}

  /**
   * One connection per client setting; stalls are counted against the fastest request of the whole
   * probe.
   */
  public record KeepAliveResult(double stallOverMs, double fastestMs, List<KeepAliveRow> rows) {}

  public record KeepAliveRow(
      boolean clientNodelay,
      int requests,
      double meanMs,
      double p50Ms,
      double p99Ms,
      double maxMs,
      int stalls,
      double totalMs) {}
}
