"""Fixtures for the network layer.  Helpers: ``net_netns_helper`` (a peer run inside a network
namespace); ``tests.netns`` builds the namespaces.
"""
