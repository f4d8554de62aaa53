#version 460
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require

// Votes, broadcasts, shuffles, ballot queries and the subgroup built-ins.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
layout(std430, binding = 1) buffer Masks { uvec4 masks[]; };

void main()
{
    uint i = gl_SubgroupInvocationID;
    uint v = data[gl_GlobalInvocationID.x];
    uint r = 0u;
    if (subgroupAll(v > 0u)) r |= 1u;
    if (subgroupAny(v == 7u)) r |= 2u;
    if (subgroupAllEqual(v)) r |= 4u;
    r += subgroupBroadcast(v, 3u) + subgroupBroadcastFirst(v);
    r += subgroupShuffle(v, (i + 1u) % gl_SubgroupSize) + subgroupShuffleXor(v, 1u);
    r += subgroupShuffleUp(v, 1u) + subgroupShuffleDown(v, 2u);
    uvec4 ballot = subgroupBallot((v & 1u) == 1u);
    r += subgroupBallotFindLSB(ballot) + subgroupBallotFindMSB(ballot) + subgroupBallotInclusiveBitCount(ballot);
    if (subgroupBallotBitExtract(ballot, 0u) && subgroupInverseBallot(ballot)) r += 8u;
    if (subgroupElect()) r += gl_NumSubgroups * 100u + gl_SubgroupID;
    data[gl_GlobalInvocationID.x] = r;
    masks[gl_GlobalInvocationID.x] = gl_SubgroupEqMask ^ gl_SubgroupGeMask ^ gl_SubgroupGtMask ^ gl_SubgroupLeMask ^ gl_SubgroupLtMask;
}
