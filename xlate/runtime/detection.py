"""MXNet's contrib detection operators that SSD-style Gluon code calls (MX009), and the box target
operators of GluonCV's matchers and coders (MX441)."""
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


# Note [box target operators]
# GluonCV's target generators (matcher.py, coder.py) and code copied from them call three more contrib
# operators. bipartite_matching sorts each batch's (N, M) scores, descending unless is_ascend and stable on
# ties (MXNet's CPU SortByKey is std::stable_sort, so ties go in row-major order), then walks them: an entry
# whose row and column are both free is matched if its score passes the threshold (> threshold, or < with
# is_ascend); the first free one that does not pass ends the walk, and so does the match after the topk-th
# (MXNet breaks once the count exceeds topk, so topk + 1 rows match). Each step below finds the next free
# entry from the last match on, a chunk at a time: rows and columns are only taken, so no entry passed
# over becomes free again, and the walk reads each entry once (the sort dominates: 8732 x 20 in 0.25 s
# on one CPU core). box_encode computes in double and stores in the arrays' dtype, reading anchors
# (B, N, 4) per sample; box_decode computes in the dtype, reading the first N anchors for every sample.
# None of the three has a gradient in MXNet (zero): the results are detached.
def _mx_bipartite_matching(data=None, is_ascend=False, threshold=None, topk=-1, out=None, name=None):
    """MXNet contrib.bipartite_matching: greedy matching of (..., N, M) scores -> [row_marker (..., N),
    col_marker (..., M)], each the matched column / row or -1, in the data's dtype (Note [box target
    operators])."""
    if out is not None:
        raise NotImplementedError("bipartite_matching(out=...): assign the result instead")
    if threshold is None:
        raise TypeError("bipartite_matching() requires threshold, as MXNet's does")
    scores = data.detach()
    rows, cols = int(scores.shape[-2]), int(scores.shape[-1])
    flat = scores.reshape(-1, rows * cols)
    row_marker = torch.full((flat.shape[0], rows), -1.0, dtype=data.dtype, device=data.device)
    col_marker = torch.full((flat.shape[0], cols), -1.0, dtype=data.dtype, device=data.device)
    for b in range(flat.shape[0]):
        ordered, order = torch.sort(flat[b], descending=not is_ascend, stable=True)
        passes = ordered < threshold if is_ascend else ordered > threshold
        r, c = order // cols, order % cols
        free_row = torch.ones(rows, dtype=torch.bool, device=data.device)
        free_col = torch.ones(cols, dtype=torch.bool, device=data.device)
        count, start, step = 0, 0, 4096
        while start < order.numel():
            # rows and columns are only ever taken: an entry passed over is never free again, so the
            # walk goes on from the last match, a chunk at a time
            free = (free_row[r[start:start + step]] & free_col[c[start:start + step]]).nonzero()
            if free.numel() == 0:
                start += step
                continue
            j = start + int(free[0, 0])
            if not bool(passes[j]):
                break
            rj, cj = int(r[j]), int(c[j])
            row_marker[b, rj], col_marker[b, cj] = cj, rj
            free_row[rj], free_col[cj] = False, False
            count, start = count + 1, j + 1
            if 0 < topk < count:
                break
    lead = tuple(data.shape[:-2])
    return [row_marker.reshape(lead + (rows,)), col_marker.reshape(lead + (cols,))]


def _mx_box_encode(samples=None, matches=None, anchors=None, refs=None, means=None, stds=None, out=None, name=None):
    """MXNet contrib.box_encode: targets and masks (B, N, 4) of anchors (B, N, 4) against the reference
    boxes (B, M, 4) their `matches` (B, N) name, corners in, (dx, dy, log dw, log dh) standardised by
    `means` and `stds` (4,) out, where `samples` > 0.5; 0 elsewhere (Note [box target operators])."""
    if out is not None:
        raise NotImplementedError("box_encode(out=...): assign the result instead")
    dtype = anchors.dtype
    d = torch.float64
    batch, n = int(samples.shape[0]), int(samples.shape[1])
    a = anchors.detach().to(d).reshape(batch, n, 4)
    ref = refs.detach().to(d).reshape(batch, -1, 4)
    # MXNet reads box j * M + match of all the samples' boxes (a positive's match is >= 0; a
    # negative's box is read and not used)
    first = ref.shape[1] * torch.arange(batch, device=ref.device).reshape(batch, 1)
    at = matches.detach().to(torch.int64).reshape(batch, n) + first
    g = ref.reshape(-1, 4)[at.clamp(0, batch * ref.shape[1] - 1)]
    valid = (samples.detach().reshape(batch, n, 1) > 0.5).to(d)
    mean = means.detach().to(d).reshape(4) if torch.is_tensor(means) else torch.tensor(means, dtype=d)
    std = stds.detach().to(d).reshape(4) if torch.is_tensor(stds) else torch.tensor(stds, dtype=d)
    gw, gh, aw, ah = g[..., 2] - g[..., 0], g[..., 3] - g[..., 1], a[..., 2] - a[..., 0], a[..., 3] - a[..., 1]
    gx, gy, ax, ay = g[..., 0] + gw * 0.5, g[..., 1] + gh * 0.5, a[..., 0] + aw * 0.5, a[..., 1] + ah * 0.5
    codes = torch.stack([((gx - ax) / aw - mean[0]) / std[0], ((gy - ay) / ah - mean[1]) / std[1],
                         (torch.log(gw / aw) - mean[2]) / std[2], (torch.log(gh / ah) - mean[3]) / std[3]], dim=-1)
    targets = torch.where(valid > 0.5, codes, torch.zeros_like(codes))
    return [targets.to(dtype), valid.expand(batch, n, 4).to(dtype)]


def _mx_box_decode(data=None, anchors=None, std0=1.0, std1=1.0, std2=1.0, std3=1.0, clip=-1.0, format="center",
                   out=None, name=None):
    """MXNet contrib.box_decode: boxes (B, N, 4) as corners from offsets `data` (B, N, 4) about the
    anchors (1, N, 4), 'center' (x, y, w, h) or 'corner'; the log-size offsets capped at `clip` when it is
    positive (Note [box target operators])."""
    if out is not None:
        raise NotImplementedError("box_decode(out=...): assign the result instead")
    x = data.detach()
    n = int(x.shape[1])
    a = anchors.detach().to(x.dtype).reshape(-1, 4)
    if a.shape[0] != n:
        raise ValueError(f"box_decode: anchors must hold {n} boxes (1, N, 4), as MXNet reads them; got "
                         f"{tuple(anchors.shape)}")
    ax, ay, aw, ah = a[:, 0], a[:, 1], a[:, 2], a[:, 3]
    if format == "corner":
        aw, ah = aw - ax, ah - ay
        ax, ay = ax + aw * 0.5, ay + ah * 0.5
    ox = x[..., 0] * std0 * aw + ax
    oy = x[..., 1] * std1 * ah + ay
    dw, dh = x[..., 2] * std2, x[..., 3] * std3
    if clip > 0:
        dw, dh = torch.clamp(dw, max=clip), torch.clamp(dh, max=clip)
    ow, oh = torch.exp(dw) * aw * 0.5, torch.exp(dh) * ah * 0.5
    return torch.stack([ox - ow, oy - oh, ox + ow, oy + oh], dim=-1)


# Note [region proposals]
# MXNet's `contrib.MultiProposal` (and `contrib.Proposal`, its one-image form) is Faster R-CNN's
# proposal layer, as its CPU kernel computes it (src/operator/contrib/multi_proposal.cc, 1.9.1): one
# base anchor per (ratio, scale), ratios outer, from a (0, 0, stride - 1, stride - 1) box with
# rounding; shifted over the map by the stride, position-major ((h * W + w) * A + a); the deltas
# applied as (dx, dy, log dw, log dh) with MXNet's +1 widths, clipped to the image; a box past the
# image's real extent (im_info / stride) scores -1, and one smaller than rpn_min_size * scale is
# widened by min_size / 2 on each side and scores -1; a stable sort by score, the first
# rpn_pre_nms_top_n; greedy NMS (IoU with +1 areas above the threshold suppresses) up to
# rpn_post_nms_top_n; the rows (image index, x1, y1, x2, y2), padded by repeating the kept boxes
# in order. The arithmetic is float32 as the kernel's; no gradient reaches the inputs (MXNet's
# backward writes zeros).
def _mx_proposal_anchors(feature_stride, scales, ratios):
    import math

    base = (0.0, 0.0, feature_stride - 1.0, feature_stride - 1.0)
    f32 = lambda v: float(torch.tensor(v, dtype=torch.float32))  # noqa: E731 - the kernel stores floats
    w, h = f32(base[2] - base[1] + 1.0), f32(base[3] - base[1] + 1.0)
    x_ctr, y_ctr = f32(base[0] + 0.5 * (w - 1.0)), f32(base[1] + 0.5 * (h - 1.0))
    anchors = []
    for ratio in ratios:
        for scale in scales:
            size_ratios = f32(math.floor(f32(f32(w * h) / f32(ratio))))
            new_w = f32(math.floor(f32(math.sqrt(size_ratios)) + 0.5) * f32(scale))
            new_h = f32(math.floor(f32(f32(new_w / f32(scale)) * f32(ratio)) + 0.5) * f32(scale))
            anchors.append([x_ctr - 0.5 * (new_w - 1.0), y_ctr - 0.5 * (new_h - 1.0),
                            x_ctr + 0.5 * (new_w - 1.0), y_ctr + 0.5 * (new_h - 1.0)])
    return torch.tensor(anchors, dtype=torch.float32)


def _mx_multi_proposal(cls_prob=None, bbox_pred=None, im_info=None, rpn_pre_nms_top_n=6000, rpn_post_nms_top_n=300,
                       threshold=0.7, rpn_min_size=16, scales=(4.0, 8.0, 16.0, 32.0), ratios=(0.5, 1.0, 2.0),
                       feature_stride=16, output_score=False, iou_loss=False, out=None, name=None):
    """MXNet's `nd.contrib.MultiProposal(...)` / `Proposal(...)` (Note [region proposals])."""
    scores, deltas, info = (t.detach().to(torch.float32) for t in (cls_prob, bbox_pred, im_info))
    batch, channels, height, width = scores.shape
    count = channels // 2
    anchors = _mx_proposal_anchors(feature_stride, scales, ratios).to(scores.device)
    if anchors.shape[0] != count:
        raise ValueError(f"MultiProposal: {count} anchors in cls_prob, {anchors.shape[0]} ratios x scales")
    ys, xs = torch.meshgrid(torch.arange(height, device=scores.device), torch.arange(width, device=scores.device),
                            indexing="ij")
    shifts = torch.stack([xs, ys, xs, ys], dim=-1).to(torch.float32) * feature_stride  # (H, W, 4)
    boxes = (shifts[:, :, None, :] + anchors[None, None]).reshape(-1, 4)  # ((h * W + w) * A + a, 4)
    total = boxes.shape[0]
    pre = min(rpn_pre_nms_top_n if rpn_pre_nms_top_n > 0 else total, total)
    post = min(rpn_post_nms_top_n, pre)
    rows, kept_scores = [], []
    for b in range(batch):
        im_h, im_w, im_scale = (float(v) for v in info[b, :3])
        d = deltas[b].reshape(count, 4, height, width).permute(2, 3, 0, 1).reshape(-1, 4)  # same order as boxes
        score = scores[b, count:].permute(1, 2, 0).reshape(-1).clone()
        if iou_loss:
            pred = boxes + d
        else:
            widths = boxes[:, 2] - boxes[:, 0] + 1.0
            heights = boxes[:, 3] - boxes[:, 1] + 1.0
            ctr_x, ctr_y = boxes[:, 0] + 0.5 * (widths - 1.0), boxes[:, 1] + 0.5 * (heights - 1.0)
            pred_ctr_x, pred_ctr_y = d[:, 0] * widths + ctr_x, d[:, 1] * heights + ctr_y
            pred_w, pred_h = torch.exp(d[:, 2]) * widths, torch.exp(d[:, 3]) * heights
            pred = torch.stack([pred_ctr_x - 0.5 * (pred_w - 1.0), pred_ctr_y - 0.5 * (pred_h - 1.0),
                                pred_ctr_x + 0.5 * (pred_w - 1.0), pred_ctr_y + 0.5 * (pred_h - 1.0)], dim=1)
        limit = torch.tensor([im_w - 1.0, im_h - 1.0, im_w - 1.0, im_h - 1.0], dtype=torch.float32, device=pred.device)
        pred = torch.maximum(torch.minimum(pred, limit), torch.zeros((), device=pred.device))
        real_h, real_w = int(im_h / feature_stride), int(im_w / feature_stride)
        position = torch.arange(total, device=pred.device) // count
        outside = (position // width >= real_h) | (position % width >= real_w)
        score[outside] = -1.0
        min_size = float(torch.tensor(rpn_min_size * im_scale, dtype=torch.float32))
        small = ((pred[:, 2] - pred[:, 0] + 1.0) < min_size) | ((pred[:, 3] - pred[:, 1] + 1.0) < min_size)
        pred = torch.where(small[:, None], pred + torch.tensor([-1.0, -1.0, 1.0, 1.0], device=pred.device) * (min_size / 2),
                           pred)
        score[small] = -1.0
        order = torch.sort(score, descending=True, stable=True).indices[:pre]
        dets, det_scores = pred[order], score[order]
        area = (dets[:, 2] - dets[:, 0] + 1) * (dets[:, 3] - dets[:, 1] + 1)
        suppressed = torch.zeros(pre, dtype=torch.bool, device=dets.device)
        keep = []
        for i in range(pre):
            if len(keep) >= post:
                break
            if suppressed[i]:
                continue
            keep.append(i)
            xx1 = torch.maximum(dets[i, 0], dets[i + 1:, 0])
            yy1 = torch.maximum(dets[i, 1], dets[i + 1:, 1])
            xx2 = torch.minimum(dets[i, 2], dets[i + 1:, 2])
            yy2 = torch.minimum(dets[i, 3], dets[i + 1:, 3])
            inter = (xx2 - xx1 + 1.0).clamp(min=0.0) * (yy2 - yy1 + 1.0).clamp(min=0.0)
            overlap = inter / (area[i] + area[i + 1:] - inter)
            suppressed[i + 1:] |= overlap > threshold
        index = torch.tensor([keep[i % len(keep)] for i in range(rpn_post_nms_top_n)], device=dets.device)
        rows.append(torch.cat([torch.full((rpn_post_nms_top_n, 1), float(b), device=dets.device), dets[index]], dim=1))
        kept_scores.append(det_scores[index][:, None])
    result = torch.cat(rows).to(cls_prob.dtype)
    return (result, torch.cat(kept_scores).to(cls_prob.dtype)) if output_score else result
