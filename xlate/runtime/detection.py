"""MXNet's contrib detection operators that SSD-style Gluon code calls (MX009)."""
import torch


def _mx_MultiBoxPrior(data=None, sizes=(1.0,), ratios=(1.0,), clip=False, steps=(-1.0, -1.0), offsets=(0.5, 0.5),
                      out=None, name=None):
    """MXNet's contrib.MultiBoxPrior: anchor boxes (1, H*W*(len(sizes)+len(ratios)-1), 4), corners
    (xmin, ymin, xmax, ymax) in [0, 1] units of the (N, C, H, W) input's last two axes. Per position,
    row by row: every size with the first ratio, then every further ratio with the first size; a box
    is w = size * H / W * sqrt(ratio) / 2, h = size / sqrt(ratio) / 2 about its centre
    ((col + offsets[1]) * step_x, (row + offsets[0]) * step_y), the steps 1/W and 1/H unless given
    (steps[0] is y's). float32 as MXNet computes it; only the input's shape is read (no gradient).
    MXNet takes float32 input only; the helper gives another float input's dtype the same float32
    numbers (the checker's float64 replica runs through it)."""
    if out is not None:
        raise NotImplementedError("MultiBoxPrior(out=...): assign the result instead")
    height, width = int(data.shape[2]), int(data.shape[3])
    sizes, ratios = [float(s) for s in sizes], [float(r) for r in ratios]
    step_y = float(steps[0]) if float(steps[0]) > 0 else 1.0 / height
    step_x = float(steps[1]) if float(steps[1]) > 0 else 1.0 / width
    f32 = dict(dtype=torch.float32, device=data.device)
    # MXNet's C++ in single precision: (r + offset) * step, size * in_height / in_width * ratio / 2
    cy = (torch.arange(height, **f32) + torch.tensor(float(offsets[0]), **f32)) * torch.tensor(step_y, **f32)
    cx = (torch.arange(width, **f32) + torch.tensor(float(offsets[1]), **f32)) * torch.tensor(step_x, **f32)
    shapes = [(s, ratios[0] if ratios else 1.0) for s in sizes] + [(sizes[0], r) for r in ratios[1:]]
    half = []
    for size, ratio in shapes:
        root = torch.sqrt(torch.tensor(ratio, **f32))
        s = torch.tensor(size, **f32)
        half.append(torch.stack([s * height / width * root / 2, s / root / 2]))
    half = torch.stack(half)  # (A, 2): w/2, h/2
    cy, cx = torch.meshgrid(cy, cx, indexing="ij")
    centre = torch.stack([cx, cy], dim=-1).reshape(-1, 1, 2)  # (H*W, 1, 2)
    boxes = torch.cat([centre - half, centre + half], dim=-1).reshape(1, -1, 4)
    boxes = boxes.clamp(0.0, 1.0) if clip else boxes
    return boxes.to(data.dtype) if data.dtype.is_floating_point else boxes


def _mx_MultiBoxDetection(cls_prob=None, loc_pred=None, anchor=None, clip=True, threshold=0.01, background_id=0,
                          nms_threshold=0.5, force_suppress=False, variances=(0.1, 0.1, 0.2, 0.2), nms_topk=-1,
                          out=None, name=None):
    """MXNet's contrib.MultiBoxDetection: (B, A, 6) rows [class - 1, score, xmin, ymin, xmax, ymax] from
    class probabilities (B, C, A) (class 0 the background), box offsets (B, A*4) and anchors (1, A, 4).
    As MXNet's CPU code: per anchor the best class above the background (the first on ties) unless
    its score is under `threshold`; the kept rows first in anchor order, boxes decoded about the anchor
    (centre offsets times variances[0:2] and the anchor's size, exp(size offsets times variances[2:4])),
    clipped to [0, 1] with `clip`; then sorted by score (descending, stable), the first `nms_topk`
    written over the kept rows (the kept rows after them, in anchor order, get class -1), and greedy
    suppression (IoU >= nms_threshold, within a class unless
    force_suppress) marks a row's class -1; the rest of the rows are -1. No gradient, as in MXNet."""
    if out is not None:
        raise NotImplementedError("MultiBoxDetection(out=...): assign the result instead")
    probs, locs, anchors = cls_prob.detach(), loc_pred.detach(), anchor.detach().reshape(-1, 4)
    batch, classes, count = probs.shape
    vx, vy, vw, vh = (float(v) for v in variances)
    # decoding, vectorised in the input's dtype as MXNet's per-element arithmetic
    a_w, a_h = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
    a_x, a_y = (anchors[:, 0] + anchors[:, 2]) / 2, (anchors[:, 1] + anchors[:, 3]) / 2
    offsets = locs.reshape(batch, count, 4)
    o_x = offsets[..., 0] * vx * a_w + a_x
    o_y = offsets[..., 1] * vy * a_h + a_y
    o_w = torch.exp(offsets[..., 2] * vw) * a_w / 2
    o_h = torch.exp(offsets[..., 3] * vh) * a_h / 2
    boxes = torch.stack([o_x - o_w, o_y - o_h, o_x + o_w, o_y + o_h], dim=-1)
    if clip:
        boxes = boxes.clamp(0.0, 1.0)
    result = torch.full((batch, count, 6), -1.0, dtype=probs.dtype, device=probs.device)
    if classes < 2:
        return result
    # the best class above the background per anchor, the first on ties (MXNet's strict `>` scan)
    score, best = probs[:, 1:, :].max(dim=1)  # torch gives the first index of a tie, as MXNet's scan
    best = best + 1
    for b in range(batch):
        keep = (score[b] >= threshold).nonzero().flatten()  # a score under threshold is background
        valid = int(keep.numel())
        if valid < 1:
            continue
        rows = torch.cat([(best[b, keep] - 1).to(probs.dtype)[:, None], score[b, keep][:, None], boxes[b, keep]], 1)
        if 0 < nms_threshold <= 1:
            order = torch.sort(rows[:, 1], descending=True, stable=True).indices
            top = min(valid, nms_topk) if nms_topk > 0 else valid
            rest = rows[top:].clone()
            rest[:, 0] = -1.0  # kept rows past nms_topk: MXNet leaves them in anchor order, class -1
            rows = torch.cat([rows[order[:top]], rest])
            alive = rows[:, 0] >= 0
            for i in range(valid):  # each kept row against the rows after it (a row at a time: no n x n matrix)
                if not alive[i]:
                    continue
                hit = _mx_box_overlaps(rows[i:i + 1, 2:], rows[i + 1:, 2:])[0] >= nms_threshold
                if not force_suppress:
                    hit &= rows[i + 1:, 0] == rows[i, 0]
                alive[i + 1:] &= ~hit
            rows[:, 0] = torch.where(alive, rows[:, 0], torch.full_like(rows[:, 0], -1.0))
        result[b, :valid] = rows
    return result


def _mx_box_overlaps(boxes, others):
    """IoU of each corner box of `boxes` (n, 4) with each of `others` (m, 4), (n, m), as MXNet's
    detection operators compute it, in the boxes' dtype (0 where the union is empty)."""
    lo = torch.maximum(boxes[:, None, :2], others[None, :, :2])
    hi = torch.minimum(boxes[:, None, 2:], others[None, :, 2:])
    wh = (hi - lo).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    union = (boxes[:, 2] - boxes[:, 0])[:, None] * (boxes[:, 3] - boxes[:, 1])[:, None] \
        + ((others[:, 2] - others[:, 0]) * (others[:, 3] - others[:, 1]))[None, :] - inter
    return torch.where(union <= 0, torch.zeros_like(inter), inter / union.where(union > 0, torch.ones_like(union)))


def _mx_MultiBoxTarget(anchor=None, label=None, cls_pred=None, overlap_threshold=0.5, ignore_label=-1.0,
                       negative_mining_ratio=-1.0, negative_mining_thresh=0.5, minimum_negative_samples=0,
                       variances=(0.1, 0.1, 0.2, 0.2), out=None, name=None):
    """MXNet's contrib.MultiBoxTarget: training targets of anchors (1, A, 4) for labels (B, M, 5) rows
    [class, xmin, ymin, xmax, ymax] (a class of -1 ends a sample's boxes): [loc_target (B, A*4),
    loc_mask (B, A*4), cls_target (B, A)]. As MXNet's CPU code: greedy bipartite matching (the largest
    IoU above 1e-6 among unmatched anchors and boxes, first on ties, until none is left), then each
    other anchor to its best box where that IoU exceeds overlap_threshold; a matched anchor's class is
    the box's + 1, its mask 1 and its target the box encoded about it ((centre difference) / anchor
    size / variances[0:2], log(size ratio) / variances[2:4]); every other anchor is background (0).
    A sample without boxes has class targets of ignore_label. Hard negative mining
    (negative_mining_ratio > 0) is not in the helper: it raises. cls_pred only gives the shape there.
    No gradient, as in MXNet."""
    if out is not None:
        raise NotImplementedError("MultiBoxTarget(out=...): assign the result instead")
    if negative_mining_ratio > 0:
        raise NotImplementedError("MultiBoxTarget with negative_mining_ratio > 0 (hard negative mining) has no "
                                  "translation yet: select the negatives by hand")
    anchors, labels = anchor.detach().reshape(-1, 4), label.detach()
    batch, count = labels.shape[0], anchors.shape[0]
    vx, vy, vw, vh = (float(v) for v in variances)
    dtype, device = anchors.dtype, anchors.device
    loc_target = torch.zeros(batch, count * 4, dtype=dtype, device=device)
    loc_mask = torch.zeros(batch, count * 4, dtype=dtype, device=device)
    cls_target = torch.full((batch, count), float(ignore_label), dtype=dtype, device=device)
    for b in range(batch):
        ends = (labels[b, :, 0] == -1.0).nonzero().flatten()
        gts = labels[b, :int(ends[0]) if ends.numel() else labels.shape[1]]
        if gts.shape[0] == 0:
            continue
        overlaps = _mx_box_overlaps(anchors, gts[:, 1:5].to(dtype))  # (A, G)
        matched = torch.full((count,), -1, dtype=torch.long, device=device)
        free = overlaps.clone()
        for _ in range(gts.shape[0]):  # greedy bipartite: the largest IoU left, the first in anchor-major order
            at = int(torch.argmax(free))
            j, k = divmod(at, gts.shape[0])
            if not bool(free[j, k] > 1e-6):
                break
            matched[j] = k
            free[j, :] = -1.0
            free[:, k] = -1.0
        if overlap_threshold > 0:
            best, best_gt = overlaps.max(dim=1)  # the first box of a tie
            extra = (matched < 0) & (best > overlap_threshold)
            matched = torch.where(extra, best_gt, matched)
        cls_target[b] = 0.0
        hit = (matched >= 0).nonzero().flatten()
        if hit.numel() == 0:
            continue
        a, g = anchors[hit], gts[matched[hit], 1:5].to(dtype)
        aw, ah, gw, gh = a[:, 2] - a[:, 0], a[:, 3] - a[:, 1], g[:, 2] - g[:, 0], g[:, 3] - g[:, 1]
        target = torch.stack([((g[:, 0] + g[:, 2]) * 0.5 - (a[:, 0] + a[:, 2]) * 0.5) / aw / vx,
                              ((g[:, 1] + g[:, 3]) * 0.5 - (a[:, 1] + a[:, 3]) * 0.5) / ah / vy,
                              torch.log(gw / aw) / vw, torch.log(gh / ah) / vh], dim=1)
        cls_target[b, hit] = gts[matched[hit], 0].to(dtype) + 1
        loc_mask[b].view(count, 4)[hit] = 1.0
        loc_target[b].view(count, 4)[hit] = target
    return [loc_target, loc_mask, cls_target]
