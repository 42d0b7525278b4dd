import { describe, expect, it } from "vitest";
import { tracesProtocol, tracingEnabled } from "./tracing-enabled";

describe("tracingEnabled", () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "" }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "  " }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "false" }, true],
  ])("%j → %s", (env, enabled) => {
    expect(tracingEnabled(env)).toBe(enabled);
  });
});

describe("tracesProtocol", () => {
  it("http/protobuf unless http/json is asked for; the traces variable wins over the general one", () => {
    expect(tracesProtocol({})).toBe("http/protobuf");
    expect(tracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toBe("http/json");
    expect(tracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf" })).toBe(
      "http/protobuf",
    );
    expect(tracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toBe("http/protobuf");
  });
});
