vcl 4.1;
# Varnish Cache 7.1 compressing what it fetches (beresp.do_gzip), as a site turns on gzip for
# text: an event stream is then gzipped on its way through, for clients that accept it.
# listen: {{listen_host}}:{{listen_port}}
backend default {
  .host = "{{upstream_host}}";
  .port = "{{upstream_port}}";
}

sub vcl_backend_response {
  if (beresp.http.Content-Type ~ "^text/") {
    set beresp.do_gzip = true;
  }
}
