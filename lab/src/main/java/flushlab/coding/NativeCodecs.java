package flushlab.coding;

import com.aayushatharva.brotli4j.Brotli4jLoader;

/**
 * Loads the native brotli and zstd libraries once, and says plainly when this machine cannot.
 * Loading takes milliseconds (the library is unpacked from the jar): {@link #preload} does it
 * before any event loop needs a codec, so the first br or zstd stream is not late by it.
 */
public final class NativeCodecs {
  private NativeCodecs() {}

  private static volatile boolean loaded;

  /**
   * Loads both libraries now (idempotent); a machine without brotli's native library is reported
   * when br is used.
   */
  public static void preload() {
    if (loaded) return;
    synchronized (NativeCodecs.class) {
      if (loaded) return;
      Brotli4jLoader.isAvailable();
      new com.github.luben.zstd.ZstdDecompressCtx().close();
      new com.github.luben.zstd.ZstdCompressCtx().close();
      loaded = true;
    }
  }

  static void ensureBrotli() {
    if (!Brotli4jLoader.isAvailable()) {
      Throwable cause = Brotli4jLoader.getUnavailabilityCause();
      throw new IllegalStateException(
          "br needs brotli4j's native library, which did not load on this machine ("
              + System.getProperty("os.name")
              + " "
              + System.getProperty("os.arch")
              + "): "
              + (cause == null ? "no reason given" : cause.getMessage()),
          cause);
    }
  }
}
