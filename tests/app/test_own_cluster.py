"""The suite's own Redis Cluster: six nodes, every slot served, one replica per master."""

from __future__ import annotations

from own_cluster import OwnCluster


def test_the_local_cluster_serves_every_slot_with_a_replica_per_master(
    redis_cluster: OwnCluster,
) -> None:
    info = redis_cluster.nodes[0].client().cluster("info")
    assert info["cluster_state"] == "ok" and int(info["cluster_slots_assigned"]) == 16384
    masters = redis_cluster.masters()
    assert len(masters) == 3
    assert all(len(redis_cluster.replicas_of(m)) == 1 for m in masters)
