package flushlab.client;

/** Why a stream is an error rather than a measurement. */
public enum StreamError {
  CONNECT_FAILED("could not connect"),
  NOT_HTTP("the peer does not speak HTTP"),
  HTTP2_ONLY("the peer speaks HTTP/2 only"),
  HTTP_STATUS("the response status is not 200"),
  NOT_SSE("the response is not an SSE stream"),
  RESET("the connection was reset"),
  TRUNCATED("the connection closed before the response ended"),
  TIMEOUT("the request timed out"),
  PROTOCOL("the response broke HTTP or SSE framing"),
  ENCODING_NOT_ASKED("the body is in a content coding the request did not accept"),
  ENCODING_UNKNOWN("the body is in a content coding this client does not decode"),
  ENCODING_CORRUPT("the body could not be decoded from its content coding"),
  NO_FRAMES("the response ended without a single frame");

  private final String meaning;

  StreamError(String meaning) {
    this.meaning = meaning;
  }

  public String meaning() {
    return meaning;
  }
}
