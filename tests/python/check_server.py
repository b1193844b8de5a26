"""A client that is not ours: checks a bridge-club server with Python grpcio.

Usage: check_server.py HOST:PORT SERVICE...
Prints a JSON object: the health status of the server ("") and of each SERVICE, and the
services the server lists through reflection (v1alpha, which grpcio-reflection speaks).
"""
import json
import sys

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc


def main() -> None:
    target, services = sys.argv[1], sys.argv[2:]
    with grpc.insecure_channel(target) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        statuses = {}
        for name in [""] + services:
            try:
                response = health.Check(health_pb2.HealthCheckRequest(service=name), timeout=10)
                statuses[name] = health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)
            except grpc.RpcError as error:
                statuses[name] = error.code().name
        reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        listed = []
        for response in reflection.ServerReflectionInfo(iter([request]), timeout=10):
            listed.extend(service.name for service in response.list_services_response.service)
    print(json.dumps({"health": statuses, "reflection": sorted(listed)}))


if __name__ == "__main__":
    main()
