vcl 4.1;
# Varnish Cache 7.1 with its built-in VCL (beresp.do_stream is on by default): only the backend is
# set. varnishd takes its listen address on the command line; the lab reads it from this line:
# listen: {{listen_host}}:{{listen_port}}
backend default {
  .host = "{{upstream_host}}";
  .port = "{{upstream_port}}";
}
