def quick_sort(xs):
    if len(xs) <= 1:
        return xs
    pivot = xs[len(xs) // 2]
    return quick_sort([x for x in xs if x < pivot]) + [x for x in xs if x == pivot] + quick_sort([x for x in xs if x > pivot])
