package flushlab.report;

import flushlab.core.Build;
import flushlab.core.ProcFiles;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What a result depends on besides the scenario: the lab's version and commit, the machine, and the
 * kernel's TCP settings.
 */
public record Environment(
    String flushlabVersion,
    String gitCommit,
    String jvm,
    String os,
    String kernel,
    int cpus,
    String nativeTransport,
    String workingDirectory,
    KernelTcp kernelTcp) {

  /**
   * The kernel's TCP buffer and corking settings, as /proc/sys has them ("unreadable" elsewhere).
   */
  public record KernelTcp(
      String tcpRmem, String tcpWmem, String rmemMax, String wmemMax, String tcpAutocorking) {

    static KernelTcp read() {
      return new KernelTcp(
          proc("ipv4/tcp_rmem"),
          proc("ipv4/tcp_wmem"),
          proc("core/rmem_max"),
          proc("core/wmem_max"),
          proc("ipv4/tcp_autocorking"));
    }

    private static String proc(String name) {
      try {
        return ProcFiles.read(Path.of("/proc/sys/net", name)).trim().replaceAll("\\s+", " ");
      } catch (IOException e) {
        return "unreadable";
      }
    }
  }

  public static Environment capture(boolean nativeTransport) {
    return new Environment(
        Build.version(),
        Build.commit(),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
        System.getProperty("os.name") + " " + System.getProperty("os.arch"),
        System.getProperty("os.version"),
        Runtime.getRuntime().availableProcessors(),
        nativeTransport ? "epoll" : "nio",
        Path.of("").toAbsolutePath().toString(),
        KernelTcp.read());
  }

  /** The build, JVM, OS and the kernel's TCP settings, as Markdown list items. */
  public String describe() {
    return "- flushlab "
        + flushlabVersion
        + ", commit "
        + gitCommit
        + "\n"
        + "- "
        + jvm
        + ", "
        + os
        + ", kernel "
        + kernel
        + ", "
        + cpus
        + " CPUs\n"
        + String.format(
            "- kernel TCP: tcp_rmem %s, tcp_wmem %s, rmem_max %s, wmem_max %s, tcp_autocorking %s%n",
            kernelTcp.tcpRmem(),
            kernelTcp.tcpWmem(),
            kernelTcp.rmemMax(),
            kernelTcp.wmemMax(),
            kernelTcp.tcpAutocorking());
  }
}
