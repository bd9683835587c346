"""PyTorch side of the gradient and training figures (bench/cudeno/grad.ts, bench/cudeno/train.ts)."""

import time
from functools import partial

import torch
from records import SETTLE_S, emit, gbps, log, require
from torch_common import DEVICE, record, timer


def gradients(n=1 << 28, batch=4096, reps=20, ops=100, rounds=200):
    """The gradient figures (bench/cudeno/grad.ts): forward + backward of a chain and of an MLP loss through
    autograd eagerly (impl torch) and of the torch.compile'd forward (impl torch-compile, skipped with a log
    line where it cannot compile here); and autograd's host cost per recorded op."""
    t = timer()
    gen = torch.Generator(device=DEVICE).manual_seed(47)
    x = torch.rand(n, device=DEVICE, generator=gen).requires_grad_()
    y = torch.rand(n, device=DEVICE, generator=gen).requires_grad_()

    def chain_sum(x, y):
        return (torch.exp(2 * x + y) * 0.5).sum()

    xd, yd = x.detach()[: 1 << 20].double(), y.detach()[: 1 << 20].double()
    want = chain_sum(x.detach().double(), y.detach().double()).item()

    def chain_step(fn):
        value = fn(x, y)
        return (value, *torch.autograd.grad(value, (x, y)))

    def chain_check(value, dx, dy):
        e = torch.exp(2 * xd + yd)
        require(abs(value.item() - want) <= 1e-4 * want, "grad.chain: the value differs")
        require(torch.allclose(dx[: 1 << 20].double(), e, rtol=1e-6, atol=0), "grad.chain: dx differs")
        require(torch.allclose(dy[: 1 << 20].double(), 0.5 * e, rtol=1e-6, atol=0), "grad.chain: dy differs")

    # The MLP of grad.mlp: 784-1024-1024-10, ReLU, -mean(sum(t * log_softmax(z, 1), 1)) with one-hot t.
    widths = (784, 1024, 1024, 10)
    params = []
    for i in range(3):
        params.append(torch.randn(widths[i], widths[i + 1], device=DEVICE, generator=gen) * (2 / widths[i]) ** 0.5)
        params.append(torch.randn(widths[i + 1], device=DEVICE, generator=gen) * 0.1)
    params = [p.requires_grad_() for p in params]
    inputs = torch.randn(batch, widths[0], device=DEVICE, generator=gen)
    labels = torch.randint(0, widths[3], (batch,), device=DEVICE, generator=gen)
    targets = torch.nn.functional.one_hot(labels, widths[3]).float()

    def mlp_loss(p, x, t):
        h = torch.relu(x @ p[0] + p[1])
        h = torch.relu(h @ p[2] + p[3])
        z = h @ p[4] + p[5]
        return -(t * torch.log_softmax(z, 1)).sum(1).mean()

    # The float64 reference: the same loss and its gradients through autograd on float64 copies.
    p64 = [p.detach().double().requires_grad_() for p in params]
    loss64 = mlp_loss(p64, inputs.double(), targets.double())
    grads64 = torch.autograd.grad(loss64, p64)

    def mlp_step(fn):
        value = fn(params, inputs, targets)
        return (value, *torch.autograd.grad(value, params))

    def mlp_check(value, *grads):
        require(abs(value.item() - loss64.item()) <= 1e-5 * abs(loss64.item()), "grad.mlp: the loss differs")
        # A pre-activation within float32's rounding of 0 can take the other side of the ReLU than in float64
        # (about one in 10^6 does), moving the gradients of the layers before it by up to about 1e-3; the
        # last layer's see only the ReLU's output there, which is near 0 either way.
        for i, (g, g64) in enumerate(zip(grads, grads64)):
            err = ((g.double() - g64).norm() / g64.norm()).item()
            require(err < (1e-4 if i >= 4 else 1e-2), f"grad.mlp: gradient {i}'s relative error is {err:.1e}")

    cases = [
        ("grad.chain.2^28", chain_sum, chain_step, chain_check, 0,
         "GB/s", lambda ms: gbps(4 * 4 * n, ms),
         "torch.autograd.grad of (torch.exp(2 * x + y) * 0.5).sum() for x and y, 2^28 float32: the value and dx, dy; "
         "useful bytes 4 x 4 x 2^28"),
        (f"grad.mlp.{batch}", mlp_loss, mlp_step, mlp_check, SETTLE_S, "ms", lambda ms: ms,
         f"torch.autograd.grad of the cross-entropy loss -(t * log_softmax(z, 1)).sum(1).mean() (one-hot t) of a "
         f"784-1024-1024-10 MLP (torch.relu), batch {batch}, float32, TF32 off: the loss and the six parameter "
         f"gradients, per step; loss {loss64.item():.4f}"),
    ]
    # Batches of calls between the events, as every producer of these figures times them.
    for impl, wrap in (("torch", lambda f: f), ("torch-compile", torch.compile)):
        for figure, fn, step, check, settle_s, unit, convert, note in cases:
            try:
                run = partial(step, wrap(fn))
                check(*run())
            except Exception as e:  # torch.compile needs a working inductor (Triton): a peer that cannot run is skipped
                if impl == "torch":
                    raise
                log(f"torch_bench: torch.compile of {figure} failed, its figure is skipped: {type(e).__name__}: {e}")
                continue
            ms = t.samples(run, reps, batch=t.batch_for(run), settle_s=settle_s)
            emit(impl, figure, unit, "higher" if unit == "GB/s" else "lower", [convert(v) for v in ms],
                 note if impl == "torch" else f"torch.compile of the forward; {note}")
    del x, y, xd, yd, params, p64, grads64, inputs, targets
    torch.cuda.empty_cache()

    # grad.record.host: ops elementwise ops on 16 floats with autograd recording less the same without, per op.
    small = torch.rand(16, device=DEVICE, generator=gen)
    w = torch.rand(16, device=DEVICE, generator=gen) + 0.5

    def tiny_chain(x):
        y = x
        for k in range(ops):
            y = y * w if k % 4 == 0 else y + 0.25 if k % 4 == 1 else torch.tanh(y) if k % 4 == 2 else y - x
        return y

    plain, tracked = small, small.clone().requires_grad_()
    require(torch.equal(tiny_chain(plain), tiny_chain(tracked).detach()), "grad.record.host: recorded ops differ")

    def host_us(x):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(rounds):
            tiny_chain(x)
        us = (time.perf_counter() - t0) * 1e6 / (rounds * ops)
        torch.cuda.synchronize()
        return us

    for _ in range(rounds // 10):
        tiny_chain(plain)
        tiny_chain(tracked)
    eager_us, extra_us = [], []
    for s in range(7):  # in turns, each first in every other sample
        if s % 2 == 0:
            eager, rec = host_us(plain), host_us(tracked)
        else:
            rec, eager = host_us(tracked), host_us(plain)
        eager_us.append(eager)
        extra_us.append(rec - eager)
    eager_us.sort()
    record("grad.record.host", "us", "lower", extra_us,
           f"host time of {ops} elementwise ops on 16 float32 (mul, add, tanh, sub in turn) on a tensor that requires "
           f"grad (the graph made and dropped, no backward) less the same on one that does not ({eager_us[3]:.2f} us "
           f"an op), per op; {rounds} calls a sample")


def training(samples=5, settle_s=1.0):
    """The training figures (bench/cudeno/train.ts): samples per second of whole eager training steps
    (forward, loss.backward(), AdamW's step) of the MLP, the CNN and the char GPT of issue 30 on one fixed batch, with the
    model eager (impl torch) and torch.compile'd (impl torch-compile; the optimizer eager in both), timed on
    the host clock from the first queued step to the device's end of the last; the loss must fall."""
    nn = torch.nn

    class Cnn(nn.Module):
        def __init__(self):
            super().__init__()
            self.convs = nn.ModuleList([nn.Conv2d(a, b, 3, padding=1) for a, b in ((3, 64), (64, 128), (128, 256))])
            self.fc = nn.Linear(256 * 4 * 4, 10)

        def forward(self, x):
            for conv in self.convs:
                x = torch.nn.functional.max_pool2d(torch.relu(conv(x)), 2)
            return self.fc(x.flatten(1))

    class Block(nn.Module):
        def __init__(self, width, heads):
            super().__init__()
            self.heads = heads
            self.ln1, self.ln2 = nn.LayerNorm(width), nn.LayerNorm(width)
            self.attn, self.proj = nn.Linear(width, 3 * width), nn.Linear(width, width)
            self.fc, self.out = nn.Linear(width, 4 * width), nn.Linear(4 * width, width)

        def forward(self, x):
            b, t, c = x.shape
            q, k, v = self.attn(self.ln1(x)).view(b, t, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
            y = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.proj(y.transpose(1, 2).reshape(b, t, c))
            return x + self.out(torch.nn.functional.gelu(self.fc(self.ln2(x))))

    class Gpt(nn.Module):
        def __init__(self, vocab=65, context=256, layers=6, heads=6, width=384):
            super().__init__()
            self.wte, self.wpe = nn.Embedding(vocab, width), nn.Embedding(context, width)
            self.blocks = nn.ModuleList([Block(width, heads) for _ in range(layers)])
            self.ln_f, self.head = nn.LayerNorm(width), nn.Linear(width, vocab, bias=False)

        def forward(self, idx):
            x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1], device=idx.device))
            for block in self.blocks:
                x = block(x)
            return self.head(self.ln_f(x))

    problems = [
        ("train.mlp.4096", lambda: nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                                                 nn.Linear(1024, 10)), (4096, 784), "784-1024-1024-10 MLP (ReLU)"),
        ("train.cnn.512", Cnn, (512, 3, 32, 32),
         "CNN conv 3→64→128→256 (3×3, padding 1, each + ReLU + 2×2 max pool) + linear 4096→10"),
        ("train.gpt.64x256", Gpt, (64, 256), "char GPT (nanoGPT shakespeare-char: 6 layers, 6 heads, width 384, "
         "context 256, vocabulary 65; F.scaled_dot_product_attention)"),
        ("train.gpt.64x256.bf16", Gpt, (64, 256), "char GPT as above under torch.autocast(bfloat16)"),
    ]
    gen = torch.Generator(device=DEVICE).manual_seed(41)
    for figure, make, shape, what in problems:
        for impl in ("torch", "torch-compile"):
            torch.manual_seed(0)
            model = make().to(DEVICE)
            forward = model if impl == "torch" else torch.compile(model)
            opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
            tokens = figure.startswith("train.gpt")
            classes = 65 if tokens else 10
            if tokens:
                x = torch.randint(0, classes, shape, device=DEVICE, generator=gen)
                y = torch.randint(0, classes, shape, device=DEVICE, generator=gen)
            else:
                x = torch.randn(shape, device=DEVICE, generator=gen)
                y = torch.randint(0, classes, (shape[0],), device=DEVICE, generator=gen)
            items = shape[0] * shape[1] if tokens else shape[0]

            autocast = figure.endswith(".bf16")

            def step():
                opt.zero_grad(set_to_none=True)
                with torch.autocast("cuda", dtype=torch.bfloat16, enabled=autocast):
                    loss = torch.nn.functional.cross_entropy(forward(x).reshape(-1, classes), y.reshape(-1))
                loss.backward()
                opt.step()
                return loss

            try:
                first = step().item()
            except Exception as e:  # torch.compile needs a compiler the machine may lack
                require(impl == "torch-compile", f"{figure}: {e}")
                log(f"torch_bench: {figure} under torch.compile skipped: {e}")
                continue
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < settle_s:
                step()
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(3):
                step()
            torch.cuda.synchronize()
            steps = max(5, int(settle_s / 4 / ((time.perf_counter() - t0) / 3)) + 1)
            rates = []
            for _ in range(samples):
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                for _ in range(steps):
                    loss = step()
                last = loss.item()
                rates.append(steps * items / (time.perf_counter() - t0))
            require(last < first, f"{figure} ({impl}): the loss went from {first} to {last}")
            emit(impl, figure, "tokens/s" if tokens else "samples/s", "higher", rates,
                 f"{'eager' if impl == 'torch' else 'torch.compile(model)'} training steps of a {what}, float32 weights, batch "
                 f"{' × '.join(map(str, shape[:2] if tokens else shape[:1]))}, on one fixed batch: cross_entropy, backward, AdamW (lr 1e-3, foreach); {steps} steps a "
                 f"sample; loss {first:.3f} → {last:.3f}")
            del model, forward, opt, x, y
            torch.cuda.empty_cache()
