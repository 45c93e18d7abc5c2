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
    for b in range(batch):
        rows = []
        for i in range(count):
            score, best = -1.0, 0
            for j in range(1, classes):
                value = float(probs[b, j, i])
                if value > score:
                    score, best = value, j
            if best > 0 and score < threshold:
                best = 0
            if best > 0:
                rows.append([float(best - 1), score, *(float(v) for v in boxes[b, i])])
        valid = len(rows)
        if valid < 1:
            continue
        if 0 < nms_threshold <= 1:
            order = sorted(range(valid), key=lambda k: -rows[k][1])  # stable
            keep = min(valid, nms_topk) if nms_topk > 0 else valid
            rows = [list(rows[k]) for k in order[:keep]] + [[-1.0] + r[1:] for r in rows[keep:]]
            for i in range(valid):
                if rows[i][0] < 0:
                    continue
                for j in range(i + 1, valid):
                    if rows[j][0] < 0:
                        continue
                    if force_suppress or rows[i][0] == rows[j][0]:
                        if _mx_box_overlap(rows[i][2:], rows[j][2:]) >= nms_threshold:
                            rows[j][0] = -1.0
        result[b, :valid] = torch.tensor(rows, dtype=probs.dtype, device=probs.device)
    return result


def _mx_box_overlap(a, b):
    """IoU of two corner boxes as MXNet's detection operators compute it (0 for an empty union)."""
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return 0.0 if union <= 0 else inter / union


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
    import math

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
    boxes_of = anchors.tolist()
    for b in range(batch):
        gts = []
        for row in labels[b].tolist():
            if row[0] == -1.0:
                break
            gts.append(row)
        if not gts:
            continue
        overlaps = [[_mx_box_overlap(a, g[1:5]) for g in gts] for a in boxes_of]
        matched, anchor_done, gt_done = {}, [False] * count, [False] * len(gts)
        while not all(gt_done):
            best, best_anchor, best_gt = 1e-6, -1, -1
            for j in range(count):
                if anchor_done[j]:
                    continue
                for k in range(len(gts)):
                    if not gt_done[k] and overlaps[j][k] > best:
                        best, best_anchor, best_gt = overlaps[j][k], j, k
            if best_anchor < 0:
                break
            anchor_done[best_anchor], gt_done[best_gt] = True, True
            matched[best_anchor] = best_gt
        if overlap_threshold > 0:
            for j in range(count):
                if anchor_done[j]:
                    continue
                best, best_gt = -1.0, -1
                for k in range(len(gts)):
                    if overlaps[j][k] > best:
                        best, best_gt = overlaps[j][k], k
                if best_gt >= 0 and best > overlap_threshold:
                    matched[j] = best_gt
        cls_target[b] = 0.0
        for j, k in matched.items():
            al, at, ar, ab = boxes_of[j]
            gl, gt, gr, gb = gts[k][1:5]
            aw, ah, gw, gh = ar - al, ab - at, gr - gl, gb - gt
            target = [((gl + gr) * 0.5 - (al + ar) * 0.5) / aw / vx, ((gt + gb) * 0.5 - (at + ab) * 0.5) / ah / vy,
                      math.log(gw / aw) / vw, math.log(gh / ah) / vh]
            cls_target[b, j] = gts[k][0] + 1
            loc_mask[b, j * 4:j * 4 + 4] = 1.0
            loc_target[b, j * 4:j * 4 + 4] = torch.tensor(target, dtype=dtype, device=device)
    return [loc_target, loc_mask, cls_target]
